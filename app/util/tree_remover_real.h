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
  explicit RealTreeRemover(std::string root);

  std::vector<RemovalFailure> CleanDirectory(const std::string& dir) override;
  std::vector<RemovalFailure> RemovePath(const std::string& path) override;

 private:
  std::string root_;
};

}  // namespace kkadm::util
