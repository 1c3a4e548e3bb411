// RealFileSystem: node paths on this machine, under a root prefix (--rootfs; "/" by default).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/util/file_system.h"

namespace kkadm::util {

class WriteBehind;

class RealFileSystem final : public FileSystem {
 public:
  enum class Writes {
    kInPlace,  // WriteFile returns once the file is in place and its data on disk
    // WriteFile returns once the data is in the temp file; worker threads fsync and rename it,
    // several at a time (the device coalesces their cache flushes). Any later call that names the
    // file or a directory above it waits for it first (HostPath too, for paths handed to other
    // programs); a call naming the file itself reports its failure, until a new write of it
    // replaces it. Sync waits for all of them and reports the first failure. The node's file
    // system for commands: a phase's CPU work then overlaps the fsyncs of the files before.
    kBehind,
  };
  // `root` is a host directory ("" or "/" means the machine's own root). It must exist.
  explicit RealFileSystem(std::string root, Writes writes = Writes::kInPlace);
  ~RealFileSystem() override;  // syncs what Sync was not called for; errors are dropped

  Result<std::string> ReadFile(const std::string& path) const override;
  Status WriteFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status AppendFile(const std::string& path, std::string_view data, unsigned mode) override;
  Status MakeDirs(const std::string& path, unsigned mode) override;
  Status EnsureDirectory(const std::string& path, unsigned mode, std::string_view) override {
    return MakeDirs(path, mode);
  }
  Result<FileInfo> Stat(const std::string& path) const override;
  Result<std::vector<std::string>> ListDir(const std::string& path) const override;
  Status Remove(const std::string& path) override;
  std::string HostPath(const std::string& path) const override;
  Status Sync() override;

 private:
  std::string ToHost(const std::string& path) const;
  // Waits for the writes behind to `host_path` and below it; the failure of `host_path`'s own.
  Status Settle(const std::string& host_path) const;

  std::string root_;                         // without a trailing slash; empty for "/"
  std::vector<std::string> unsynced_dirs_;   // host paths, in the order first written to
  std::vector<std::string> unsynced_files_;  // host paths appended to
  std::unique_ptr<WriteBehind> behind_;      // null for Writes::kInPlace
};

}  // namespace kkadm::util
