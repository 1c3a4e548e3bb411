// RealMounter and DryRunMounter: /proc/self/mountinfo, umount2(2).
#include "app/util/mounter_real.h"

#include <fmt/format.h>
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

RealMounter::RealMounter(std::string root) {
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

Result<std::vector<std::string>> DryRunMounter::MountPointsUnder(const std::string& dir) {
  return real_.MountPointsUnder(dir);
}

Status DryRunMounter::Unmount(const std::string& path,
                              const std::vector<std::string>& extra_flags) {
  Result<int> flags = UnmountFlagsFor(extra_flags);
  if (!flags) return flags.error();
  printer_.Line("dryrun", fmt::format("Would unmount \"{}\"", path));
  return Status();
}

}  // namespace kkadm::util
