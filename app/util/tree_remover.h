// TreeRemover: deleting node files and directory trees for `kkadm reset`, without ever following a
// symbolic link or leaving the file system a directory lives on. Paths are node paths, as for
// FileSystem; RealTreeRemover roots them at --rootfs.
#pragma once

#include <string>
#include <vector>

#include "app/util/printer.h"
#include "app/util/strings.h"

namespace kkadm::util {

// Something that could not be removed: the node path and why, in words for the user.
struct RemovalFailure {
  std::string path;
  std::string reason;
};

class TreeRemover {
 public:
  virtual ~TreeRemover() = default;

  // Deletes everything inside the node directory `dir`; `dir` itself stays. Every component of
  // `dir` (and of the root's subpath) must be a real directory: when one is a symbolic link,
  // nothing is deleted and the link is reported, because what it points to is not this node's to
  // delete. Inside `dir` a symbolic link is removed as a link (its target is untouched), and a
  // directory on another mount is reported and not entered. A missing `dir` is not a failure, so
  // this is idempotent. Returns everything that could not be removed (empty on full success); a
  // directory left non-empty only because of a reported entry below it is not reported again.
  // A directory less than two levels below the root ("/", "/etc", "/var") is refused: that is a
  // typo in a flag or config, never a directory kubeadm made.
  virtual std::vector<RemovalFailure> CleanDirectory(const std::string& dir) = 0;

  // Removes the node path `path`: a file or link (never its target) or a directory tree, under the
  // same rules. Its parents must be real directories. Absent is not a failure.
  virtual std::vector<RemovalFailure> RemovePath(const std::string& path) = 0;

  // What reset asks for, each time saying so in kubeadm's words first, so that reset's phases
  // need not know whether they run dry. "[reset] Deleting contents of directories: [<dirs>]",
  // then CleanDirectory of each; everything that could not be removed.
  virtual std::vector<RemovalFailure> CleanDirectories(const std::vector<std::string>& dirs) = 0;
  // "[reset] Deleting files: [<paths>]", then RemovePath of each.
  virtual std::vector<RemovalFailure> RemoveFiles(const std::vector<std::string>& paths) = 0;
  // CleanDirectory of `dir`, which is `what` ("the etcd data directory"), then "[reset] Deleted
  // contents of <what>: <dir>" when nothing failed and it is a directory.
  virtual std::vector<RemovalFailure> CleanDirectoryOf(const std::string& what,
                                                       const std::string& dir) = 0;
};

// The remover of --dry-run: removes nothing. The calls of reset's phases say what they would
// delete ("[reset] Would delete files: [...]"); CleanDirectory and RemovePath say nothing.
class DryRunTreeRemover final : public TreeRemover {
 public:
  explicit DryRunTreeRemover(Printer& out) : out_(out) {}

  std::vector<RemovalFailure> CleanDirectory(const std::string&) override { return {}; }
  std::vector<RemovalFailure> RemovePath(const std::string&) override { return {}; }
  std::vector<RemovalFailure> CleanDirectories(const std::vector<std::string>& dirs) override {
    out_.Line("reset", "Would delete contents of directories: " + GoList(dirs));
    return {};
  }
  std::vector<RemovalFailure> RemoveFiles(const std::vector<std::string>& paths) override {
    out_.Line("reset", "Would delete files: " + GoList(paths));
    return {};
  }
  std::vector<RemovalFailure> CleanDirectoryOf(const std::string& what,
                                               const std::string& dir) override {
    out_.Line("reset", "Would delete contents of " + what + ": " + dir);
    return {};
  }

 private:
  Printer& out_;
};

}  // namespace kkadm::util
