// FileSystem: the only way kkadm reaches a node's files. Paths are absolute node paths
// ("/etc/kubernetes/pki/ca.crt"); an implementation decides where they live on this host
// (RealFileSystem roots them at --rootfs, DryRunFileSystem diverts writes to a temp directory).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

enum class FileType { kRegular, kDirectory, kSymlink, kOther };

struct FileInfo {
  FileType type = FileType::kRegular;
  unsigned mode = 0;  // permission bits, e.g. 0600
  std::uintmax_t size = 0;
};

// The start of the names of the temporary files an atomic write of `path` makes beside it
// ("/etc/kubernetes/.admin.conf.kkadm-tmp-"; six random characters follow). A killed run can
// leave them behind; they may hold private keys, so the next run removes them.
std::string TempFilePrefix(std::string_view path);

// The directory `path` is in: "/etc/kubernetes" for "/etc/kubernetes/admin.conf", "/" for "/etc".
std::string ParentDirectory(std::string_view path);

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // The file's bytes; NotFound when it does not exist.
  virtual Result<std::string> ReadFile(const std::string& path) const = 0;

  // Replaces the file atomically (temp file in the same directory, fsync, rename) with `data` and
  // permission bits `mode`. Missing parent directories are created 0755. On failure the old file,
  // if any, is untouched. The rename is made durable by the next Sync.
  virtual Status WriteFile(const std::string& path, std::string_view data, unsigned mode) = 0;

  // Appends `data` to the file with one write(2): a log of records, each whole or cut short at the
  // file's end by a crash, never interleaved with another. An absent file is made as WriteFile
  // makes one (`mode`, missing parents 0755, renamed into place), so it is never seen empty. The
  // next Sync makes the appended data durable.
  virtual Status AppendFile(const std::string& path, std::string_view data, unsigned mode) = 0;

  // Makes the renames of earlier WriteFile calls durable: fsyncs, once each, the directories they
  // went into. A command calls it when its phases end, so the certs phase, which writes 22 files
  // into two directories, pays for two directory syncs instead of 22.
  virtual Status Sync() = 0;

  // Creates the directory and its missing parents; the last one gets `mode`, the parents 0755,
  // whatever the umask. An existing directory keeps its mode, as with kubeadm's os.MkdirAll.
  virtual Status MakeDirs(const std::string& path, unsigned mode) = 0;

  // MakeDirs for a directory another program fills, such as etcd's data directory (kubeadm's
  // CreateDataDirectory). A dry run leaves it alone and says so in kubeadm's words, under the
  // prefix of the phase that asks: "[<phase>] Would ensure that "<path>" directory is present".
  virtual Status EnsureDirectory(const std::string& path, unsigned mode,
                                 std::string_view phase) = 0;

  // lstat: a symlink is reported as kSymlink, never followed. NotFound when absent.
  virtual Result<FileInfo> Stat(const std::string& path) const = 0;

  // Names (not paths) of the entries of a directory, sorted.
  virtual Result<std::vector<std::string>> ListDir(const std::string& path) const = 0;

  // Removes a file, a symlink (never its target) or an empty directory. Absent is OK.
  virtual Status Remove(const std::string& path) = 0;

  // Where `path` lives on this host, for messages and for programs kkadm starts.
  virtual std::string HostPath(const std::string& path) const = 0;

  // Convenience: true when Stat succeeds.
  bool Exists(const std::string& path) const { return Stat(path).has_value(); }
};

}  // namespace kkadm::util
