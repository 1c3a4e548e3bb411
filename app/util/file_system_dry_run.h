// DryRunFileSystem: what --dry-run hands to phases. Writes land under a temporary host directory
// (mirroring node paths) and are announced; reads see those writes first, then the real node.
// The node itself is never changed.
#pragma once

#include <set>
#include <string>

#include "app/util/file_system.h"
#include "app/util/file_system_real.h"
#include "app/util/printer.h"

namespace kkadm::util {

class DryRunFileSystem final : public FileSystem {
 public:
  // `base` is the node as it is (read only); `dir` an existing, empty host directory.
  DryRunFileSystem(const FileSystem& base, const std::string& dir, Printer& printer);

  Result<std::string> ReadFile(const std::string& path) const override;
  Status WriteFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status Sync() override;
  Status MakeDirs(const std::string& path, unsigned mode) override;
  Result<FileInfo> Stat(const std::string& path) const override;
  Result<std::vector<std::string>> ListDir(const std::string& path) const override;
  Status Remove(const std::string& path) override;
  std::string HostPath(const std::string& path) const override;

  const std::string& dir() const { return dir_; }

 private:
  bool Written(const std::string& path) const;

  const FileSystem& base_;
  std::string dir_;
  RealFileSystem overlay_;
  Printer& printer_;
  std::set<std::string> removed_;
};

}  // namespace kkadm::util
