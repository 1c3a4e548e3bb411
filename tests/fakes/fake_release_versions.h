// Release-label sources for tests: label files served from a map and every URL asked recorded, so
// that nothing reaches the network.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "app/config/release_version.h"
#include "build_info.h"

namespace kkadm::testing {

// Where the release labels are: kRelease + "stable-1.txt".
inline const std::string kRelease = std::string(config::kReleaseBucketUrl) + "/release/";

struct FakeReleaseFiles {
  std::map<std::string, std::string> files;  // full URL -> body; any other URL: 404
  std::vector<std::string> fetched;          // URLs in the order they were asked for
};

// A source whose fetch answers from `files` (shared, so the test can look at `fetched`).
inline config::ReleaseVersionSource FakeReleaseVersions(std::shared_ptr<FakeReleaseFiles> files) {
  config::ReleaseVersionSource source;
  source.fetch = [files](const std::string& url, std::chrono::milliseconds) -> Result<std::string> {
    files->fetched.push_back(url);
    auto it = files->files.find(url);
    if (it == files->files.end()) {
      return Unavailable("unable to fetch file. URL: \"" + url + "\", status: 404 Not Found");
    }
    return it->second;
  };
  return source;
}

// A connected machine where stable-1 is kkadm's own version: what the tests that do not look at
// version labels expect, without warnings.
inline config::ReleaseVersionSource StableIsBuiltInVersion() {
  auto files = std::make_shared<FakeReleaseFiles>();
  files->files[kRelease + "stable-1.txt"] = build_info::kKubernetesVersion;
  return FakeReleaseVersions(files);
}

// One StableIsBuiltInVersion() for the tests that pass it by reference.
inline const config::ReleaseVersionSource& BuiltInVersions() {
  static const config::ReleaseVersionSource versions = StableIsBuiltInVersion();
  return versions;
}

}  // namespace kkadm::testing
