// FakeMounter: a Mounter over a list of node mount points, recording unmounts; a test can make
// listing or unmounting a given path fail.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "app/util/mounter.h"

namespace kkadm::testing {

class FakeMounter final : public util::Mounter {
 public:
  std::vector<std::string> mounts;     // node mount points, in mount order
  std::map<std::string, Status> fail;  // Unmount(path) returns this and keeps the mount
  Status list_error;                   // when set, MountPointsUnder fails with it
  std::vector<std::string> unmounted;  // "path FLAG,FLAG" in call order

  Result<std::vector<std::string>> MountPointsUnder(const std::string& dir) override {
    if (!list_error.ok()) return list_error;
    std::vector<std::string> below;
    for (auto it = mounts.rbegin(); it != mounts.rend(); ++it) {
      if (it->rfind(dir + "/", 0) == 0) below.push_back(*it);
    }
    return below;
  }
  Status Unmount(const std::string& path, const std::vector<std::string>& extra_flags) override {
    std::string flags;
    for (const auto& f : extra_flags) flags += (flags.empty() ? "" : ",") + f;
    unmounted.push_back(flags.empty() ? path : path + " " + flags);
    if (auto it = fail.find(path); it != fail.end()) return it->second;
    auto it = std::find(mounts.rbegin(), mounts.rend(), path);
    if (it != mounts.rend()) mounts.erase(std::next(it).base());
    return Status();
  }
  // As the real one, without its line (tests that check it use a RealMounter).
  Result<std::map<std::string, std::string>> UnmountAllUnder(
      const std::string& dir, const std::vector<std::string>& extra_flags) override {
    Result<std::vector<std::string>> below = MountPointsUnder(dir);
    if (!below) return below.error();
    return util::UnmountEach(*this, *below, extra_flags);
  }
};

}  // namespace kkadm::testing
