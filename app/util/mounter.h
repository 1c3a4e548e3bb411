// Mounter: the mount table as `kkadm reset` needs it: which mounts lie below a node directory, and
// unmounting them. Paths are node paths; RealMounter maps them through --rootfs.
#pragma once

#include <map>
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

  // Reset's unmounting, said in kubeadm's words first ("[reset] Unmounting mounted directories in
  // "<dir>""), so that reset's phases need not know whether they run dry: MountPointsUnder(dir),
  // then UnmountEach. The unmount errors by mount point; an error when the mounts cannot be
  // listed.
  virtual Result<std::map<std::string, std::string>> UnmountAllUnder(
      const std::string& dir, const std::vector<std::string>& extra_flags) = 0;
};

// Unmount of each of `mount_points`, in order; each failure is logged as a warning. The errors
// by mount point (empty when all went).
std::map<std::string, std::string> UnmountEach(Mounter& mounter,
                                               const std::vector<std::string>& mount_points,
                                               const std::vector<std::string>& extra_flags);

// Linux umount2 flags for the names above; InvalidArgument naming an unknown one.
Result<int> UnmountFlagsFor(const std::vector<std::string>& extra_flags);

}  // namespace kkadm::util
