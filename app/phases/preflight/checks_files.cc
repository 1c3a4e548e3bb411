// Pre-flight checks on node files: FileAvailable, DirAvailable, FileExisting.
#include "app/phases/preflight/checks_files.h"

#include <utility>

namespace kkadm::phases::preflight {
namespace {

class FileAvailableCheck final : public Check {
 public:
  explicit FileAvailableCheck(std::string path) : path_(std::move(path)) {}
  std::string Name() const override { return PathCheckName("FileAvailable", path_); }
  CheckResult Run(const util::Host& host) const override {
    if (host.fs.Exists(path_)) return {{}, {path_ + " already exists"}};
    return {};
  }

 private:
  std::string path_;
};

class DirAvailableCheck final : public Check {
 public:
  explicit DirAvailableCheck(std::string path) : path_(std::move(path)) {}
  std::string Name() const override { return PathCheckName("DirAvailable", path_); }
  CheckResult Run(const util::Host& host) const override {
    auto info = host.fs.Stat(path_);
    if (!info && info.error().code() == StatusCode::kNotFound) return {};
    auto entries = host.fs.ListDir(path_);
    if (!entries) {
      return {{}, {"unable to check if " + path_ + " is empty: " + entries.error().message()}};
    }
    if (!entries->empty()) return {{}, {path_ + " is not empty"}};
    return {};
  }

 private:
  std::string path_;
};

class FileExistingCheck final : public Check {
 public:
  FileExistingCheck(std::string path, std::string label)
      : path_(std::move(path)), label_(std::move(label)) {}
  std::string Name() const override {
    return label_.empty() ? PathCheckName("FileExisting", path_) : label_;
  }
  CheckResult Run(const util::Host& host) const override {
    if (!host.fs.Exists(path_)) return {{}, {path_ + " doesn't exist"}};
    return {};
  }

 private:
  std::string path_;
  std::string label_;
};

}  // namespace

std::unique_ptr<Check> NewFileAvailableCheck(std::string path) {
  return std::make_unique<FileAvailableCheck>(std::move(path));
}
std::unique_ptr<Check> NewDirAvailableCheck(std::string path) {
  return std::make_unique<DirAvailableCheck>(std::move(path));
}
std::unique_ptr<Check> NewFileExistingCheck(std::string path, std::string label) {
  return std::make_unique<FileExistingCheck>(std::move(path), std::move(label));
}

}  // namespace kkadm::phases::preflight
