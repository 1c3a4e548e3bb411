// RealFileSystem: node paths on this machine, under a node root (--rootfs; "/" by default) that
// is a root: every path resolves inside it, links included, as in a chroot (node_root.h).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/node_root.h"

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
  // The largest node file ReadFile reads (64 MiB; kkadm's largest, its journal after many runs,
  // holds a few hundred kB). A larger one, or one that is not a regular file (a FIFO planted at
  // /etc/kubernetes/admin.conf would block the read forever, a device never end), is refused at
  // once: FailedPrecondition "reading <path>: a FIFO" or "...: over the limit of 67108864 bytes".
  static constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;

  // `root` is a host directory ("" or "/" means the machine's own root). It must exist.
  // Every node path resolves inside it (NodeRoot): an absolute link target is a path of the node
  // root and `..` stops at it. Writes make directories (mkdirat) and files (a temp file, then
  // renameat) in a descriptor of the resolved parent and never follow the last component: a link
  // there is replaced, not written through. HostPath gives the resolved path.
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
  std::string ToHost(const std::string& path) const { return root_.Lexical(path); }
  // Waits for the writes behind to `host_path` and below it; the failure of `host_path`'s own.
  Status Settle(const std::string& host_path) const;

  // Closes the descriptors AppendFile keeps for `path` and the files below it.
  void StopAppending(const std::string& path);

  NodeRoot root_;
  // Files appended to, kept open: a journal takes a record per file a phase makes, and opening it
  // each time (openat2 resolving every component) cost more than the write. WriteFile and Remove
  // of the file or of a directory above it close its descriptor.
  std::map<std::string, UniqueFd> appending_;
  std::vector<std::string> unsynced_dirs_;   // node paths, in the order first written to
  std::vector<std::string> unsynced_files_;  // node paths appended to
  std::unique_ptr<WriteBehind> behind_;      // null for Writes::kInPlace
};

}  // namespace kkadm::util
