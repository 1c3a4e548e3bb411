// Mounter: the mount table as `kkadm reset` needs it: which mounts lie below a node directory, and
// unmounting them. Paths are node paths; RealMounter maps them through --rootfs.
#pragma once

#include <string>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

class Mounter {
 public:
  virtual ~Mounter() = default;

  // Every mount point strictly below the node directory `dir` (a mount on `dir` itself is not
  // listed), in the order to unmount them: the most recently mounted first, so stacked mounts and
  // mounts inside mounts come off top-down. A mount point listed twice is stacked.
  virtual Result<std::vector<std::string>> MountPointsUnder(const std::string& dir) = 0;

  // umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW | extra_flags), where extra_flags are the names of
  // ResetConfiguration.unmountFlags ("MNT_FORCE", "MNT_DETACH", "MNT_EXPIRE", "UMOUNT_NOFOLLOW").
  // MNT_EXPIRE cannot be combined with MNT_DETACH, so with it the detach is left out. Fails with
  // the kernel's reason (e.g. "Device or resource busy"); InvalidArgument for an unknown flag name.
  virtual Status Unmount(const std::string& path, const std::vector<std::string>& extra_flags) = 0;
};

// Linux umount2 flags for the names above; InvalidArgument naming an unknown one.
Result<int> UnmountFlagsFor(const std::vector<std::string>& extra_flags);

}  // namespace kkadm::util
