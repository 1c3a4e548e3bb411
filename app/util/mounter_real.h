// RealMounter: the Mounter of this machine: /proc/self/mountinfo and umount2(2), with node paths
// mapped under --rootfs.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/mounter.h"
#include "app/util/printer.h"

namespace kkadm::util {

class RealMounter final : public Mounter {
 public:
  // `root` is the host directory node paths live under ("" or "/" for the machine's own root);
  // it is resolved once (realpath), because the mount table shows resolved paths. What it
  // unmounts for reset is said on `out`.
  RealMounter(std::string root, Printer& out);

  Result<std::vector<std::string>> MountPointsUnder(const std::string& dir) override;
  Status Unmount(const std::string& path, const std::vector<std::string>& extra_flags) override;
  Result<std::map<std::string, std::string>> UnmountAllUnder(
      const std::string& dir, const std::vector<std::string>& extra_flags) override;

 private:
  std::string HostPath(const std::string& node_path) const;
  std::string root_;  // resolved, without a trailing slash; empty for "/"
  Printer& out_;
};

// The mounter of --dry-run: lists the real mounts, unmounts nothing and says what it would
// unmount ("[dryrun] Would unmount \"/var/lib/kubelet/pods/x\""; UnmountAllUnder says "[reset]
// Would unmount mounted directories in ..."). What it would have unmounted is no longer listed,
// as after a real unmount.
class DryRunMounter final : public Mounter {
 public:
  DryRunMounter(Mounter& real, Printer& printer) : real_(real), printer_(printer) {}
  Result<std::vector<std::string>> MountPointsUnder(const std::string& dir) override;
  Status Unmount(const std::string& path, const std::vector<std::string>& extra_flags) override;
  Result<std::map<std::string, std::string>> UnmountAllUnder(
      const std::string& dir, const std::vector<std::string>& extra_flags) override;

 private:
  Mounter& real_;
  Printer& printer_;
  std::set<std::string> unmounted_;
};

// The mount points of a /proc/<pid>/mountinfo text, in its order, with the kernel's octal escapes
// (\040 for a space, ...) decoded. Lines that do not parse are skipped.
std::vector<std::string> ParseMountInfo(std::string_view mountinfo);

// The entries of `mount_points` strictly below the host directory `dir`, last first.
std::vector<std::string> MountPointsBelow(const std::vector<std::string>& mount_points,
                                          const std::string& dir);

}  // namespace kkadm::util
