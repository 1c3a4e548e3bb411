// DryRunFileSystem: what --dry-run hands to phases. Writes land under a temporary host directory
// (mirroring node paths) and are announced; reads see those writes first, then the real node.
// The node itself is never changed.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/file_system_real.h"
#include "app/util/printer.h"

namespace kkadm::util {

class DryRunFileSystem final : public FileSystem {
 public:
  // `base` is the node as it is (read only); `dir` an existing, empty host directory. A file
  // written directly into one of `shown_dirs` (node paths) is also shown with its content, each
  // line indented by a tab, as kubeadm's PrintDryRunFiles shows the static Pod manifests.
  // Writes into `quiet_dirs` (kkadm's own records of its runs) are not announced.
  DryRunFileSystem(const FileSystem& base, const std::string& dir, Printer& printer,
                   std::vector<std::string> shown_dirs = {},
                   std::vector<std::string> quiet_dirs = {});

  Result<std::string> ReadFile(const std::string& path) const override;
  Status WriteFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status AppendFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status Sync() override;
  Status MakeDirs(const std::string& path, unsigned mode) override;
  Status EnsureDirectory(const std::string& path, unsigned mode, std::string_view phase) override;
  Result<FileInfo> Stat(const std::string& path) const override;
  Result<std::vector<std::string>> ListDir(const std::string& path) const override;
  Status Remove(const std::string& path) override;
  std::string HostPath(const std::string& path) const override;

  const std::string& dir() const { return dir_; }

 private:
  bool Written(const std::string& path) const;
  bool Shown(const std::string& path) const;
  bool Quiet(const std::string& path) const;

  const FileSystem& base_;
  std::string dir_;
  RealFileSystem overlay_;
  Printer& printer_;
  std::vector<std::string> shown_dirs_;
  std::vector<std::string> quiet_dirs_;
  std::set<std::string> removed_;
};

}  // namespace kkadm::util
