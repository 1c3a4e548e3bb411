// RealTreeRemover: TreeRemover over fd-relative syscalls (openat with O_NOFOLLOW, fstatat with
// AT_SYMLINK_NOFOLLOW, unlinkat), so that no path is ever resolved through a symbolic link.
#pragma once

#include <string>
#include <vector>

#include "app/util/tree_remover.h"

namespace kkadm::util {

class RealTreeRemover final : public TreeRemover {
 public:
  // `root` is the host directory node paths live under ("" or "/" for the machine's own root).
  // It is trusted as given (it may itself be reached through links); everything below it is not.
  // What it deletes for reset is said on `out`.
  RealTreeRemover(std::string root, Printer& out);

  std::vector<RemovalFailure> CleanDirectory(const std::string& dir) override;
  std::vector<RemovalFailure> RemovePath(const std::string& path) override;
  std::vector<RemovalFailure> CleanDirectories(const std::vector<std::string>& dirs) override;
  std::vector<RemovalFailure> RemoveFiles(const std::vector<std::string>& paths) override;
  std::vector<RemovalFailure> CleanDirectoryOf(const std::string& what,
                                               const std::string& dir) override;

 private:
  std::string root_;
  Printer& out_;
};

}  // namespace kkadm::util
