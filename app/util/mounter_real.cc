// RealMounter and DryRunMounter: /proc/self/mountinfo, umount2(2).
#include "app/util/mounter_real.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/mount.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kkadm::util {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string DecodeOctalEscapes(std::string_view field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const char* digits = field.data() + i + 1;
      bool octal = true;
      for (int k = 0; k < 3; ++k) octal = octal && digits[k] >= '0' && digits[k] <= '7';
      if (octal) {
        out.push_back(
            static_cast<char>((digits[0] - '0') * 64 + (digits[1] - '0') * 8 + (digits[2] - '0')));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

}  // namespace

Result<int> UnmountFlagsFor(const std::vector<std::string>& extra_flags) {
  int flags = MNT_DETACH | UMOUNT_NOFOLLOW;
  for (const std::string& name : extra_flags) {
    if (name == "MNT_FORCE")
      flags |= MNT_FORCE;
    else if (name == "MNT_DETACH")
      flags |= MNT_DETACH;
    else if (name == "UMOUNT_NOFOLLOW")
      flags |= UMOUNT_NOFOLLOW;
    else if (name == "MNT_EXPIRE")
      flags |= MNT_EXPIRE;
    else
      return InvalidArgument(fmt::format("unmountFlags: unknown flag \"{}\"", name));
  }
  // The kernel refuses MNT_EXPIRE together with MNT_DETACH or MNT_FORCE.
  if ((flags & MNT_EXPIRE) != 0) flags &= ~(MNT_DETACH | MNT_FORCE);
  return flags;
}

std::vector<std::string> ParseMountInfo(std::string_view mountinfo) {
  std::vector<std::string> points;
  std::istringstream in{std::string(mountinfo)};
  for (std::string line; std::getline(in, line);) {
    // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw": the 5th field.
    std::istringstream fields(line);
    std::string id, parent, device, root, mount_point;
    if (fields >> id >> parent >> device >> root >> mount_point) {
      points.push_back(DecodeOctalEscapes(mount_point));
    }
  }
  return points;
}

std::vector<std::string> MountPointsBelow(const std::vector<std::string>& mount_points,
                                          const std::string& dir) {
  std::string prefix = dir;
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  prefix += '/';
  std::vector<std::string> below;
  for (auto it = mount_points.rbegin(); it != mount_points.rend(); ++it) {
    if (it->size() > prefix.size() && it->compare(0, prefix.size(), prefix) == 0)
      below.push_back(*it);
  }
  return below;
}

RealMounter::RealMounter(std::string root, Printer& out) : out_(out) {
  if (!root.empty() && root != "/") {
    char resolved[PATH_MAX];
    root_ = ::realpath(root.c_str(), resolved) != nullptr ? std::string(resolved) : root;
  }
  while (!root_.empty() && root_.back() == '/') root_.pop_back();
}

std::string RealMounter::HostPath(const std::string& node_path) const { return root_ + node_path; }

Result<std::vector<std::string>> RealMounter::MountPointsUnder(const std::string& dir) {
  std::ifstream file("/proc/self/mountinfo");
  if (!file)
    return FailedPrecondition(
        fmt::format("reading /proc/self/mountinfo: {}", std::strerror(errno)));
  std::ostringstream text;
  text << file.rdbuf();
  std::vector<std::string> node_paths;
  for (const std::string& host : MountPointsBelow(ParseMountInfo(text.str()), HostPath(dir))) {
    node_paths.push_back(host.substr(root_.size()));
  }
  return node_paths;
}

Status RealMounter::Unmount(const std::string& path, const std::vector<std::string>& extra_flags) {
  Result<int> flags = UnmountFlagsFor(extra_flags);
  if (!flags) return flags.error();
  if (::umount2(HostPath(path).c_str(), *flags) == 0) return Status();
  return FailedPrecondition(fmt::format("could not unmount: {}", std::strerror(errno)));
}

Result<std::map<std::string, std::string>> RealMounter::UnmountAllUnder(
    const std::string& dir, const std::vector<std::string>& extra_flags) {
  out_.Line("reset", fmt::format("Unmounting mounted directories in \"{}\"", dir));
  Result<std::vector<std::string>> mounts = MountPointsUnder(dir);
  if (!mounts) return mounts.error();
  return UnmountEach(*this, *mounts, extra_flags);
}

Result<std::vector<std::string>> DryRunMounter::MountPointsUnder(const std::string& dir) {
  Result<std::vector<std::string>> mounts = real_.MountPointsUnder(dir);
  if (mounts) std::erase_if(*mounts, [this](const std::string& m) { return unmounted_.count(m); });
  return mounts;
}

Status DryRunMounter::Unmount(const std::string& path,
                              const std::vector<std::string>& extra_flags) {
  Result<int> flags = UnmountFlagsFor(extra_flags);
  if (!flags) return flags.error();
  printer_.Line("dryrun", fmt::format("Would unmount \"{}\"", path));
  unmounted_.insert(path);
  return Status();
}

Result<std::map<std::string, std::string>> DryRunMounter::UnmountAllUnder(
    const std::string& dir, const std::vector<std::string>& extra_flags) {
  printer_.Line("reset", fmt::format("Would unmount mounted directories in \"{}\"", dir));
  Result<std::vector<std::string>> mounts = MountPointsUnder(dir);
  if (!mounts) return mounts.error();
  return UnmountEach(*this, *mounts, extra_flags);
}

std::map<std::string, std::string> UnmountEach(Mounter& mounter,
                                               const std::vector<std::string>& mount_points,
                                               const std::vector<std::string>& extra_flags) {
  std::map<std::string, std::string> errors;
  for (const std::string& mount : mount_points) {
    Status unmounted = mounter.Unmount(mount, extra_flags);
    if (unmounted.ok()) continue;
    spdlog::warn("[reset] Failed to unmount mounted directory {}: {}", mount, unmounted.message());
    errors[mount] = unmounted.message();
  }
  return errors;
}

}  // namespace kkadm::util
