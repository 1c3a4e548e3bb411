// RealFileSystem: node paths on this machine, under a root prefix (--rootfs; "/" by default).
#pragma once

#include <string>
#include <vector>

#include "app/util/file_system.h"

namespace kkadm::util {

class RealFileSystem final : public FileSystem {
 public:
  // `root` is a host directory ("" or "/" means the machine's own root). It must exist.
  explicit RealFileSystem(std::string root);
  ~RealFileSystem() override;  // syncs what Sync was not called for; errors are dropped

  Result<std::string> ReadFile(const std::string& path) const override;
  Status WriteFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status MakeDirs(const std::string& path, unsigned mode) override;
  Result<FileInfo> Stat(const std::string& path) const override;
  Result<std::vector<std::string>> ListDir(const std::string& path) const override;
  Status Remove(const std::string& path) override;
  std::string HostPath(const std::string& path) const override;
  Status Sync() override;

 private:
  std::string root_;  // without a trailing slash; empty for "/"
  std::vector<std::string> unsynced_dirs_;  // host paths, in the order first written to
};

}  // namespace kkadm::util
