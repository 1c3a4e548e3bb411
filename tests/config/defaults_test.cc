// ResolveKubernetesVersion against a regex-based oracle.
#include "app/config/defaults.h"

#include <gtest/gtest.h>

#include "build_info.h"
#include "tests/fakes/regex_oracle.h"

namespace kkadm::config {
namespace {

// Labels are left alone: they are looked up before defaulting (release_version_test.cc).
std::string OracleResolveKubernetesVersion(const std::string& version) {
  static const std::regex kBare(R"(\d+\.\d+\.\d+.*)");
  if (version.empty()) return build_info::kKubernetesVersion;
  if (std::regex_match(version, kBare)) return "v" + version;
  return version;
}

TEST(DefaultsTest, ResolveKubernetesVersionAgreesWithTheRegexVersion) {
  const auto inputs = kkadm::testing::OracleInputs({"",
                                                    "stable",
                                                    "latest",
                                                    "stable-1",
                                                    "latest-1.32",
                                                    "ci/latest",
                                                    "release/stable-1.31",
                                                    "ci/release/stable",
                                                    "stable-",
                                                    "stable-1.",
                                                    "stable-1.2.3",
                                                    "latest-x",
                                                    "stablex",
                                                    "release/latest-12.0",
                                                    "1.31.2",
                                                    "1.31.2-rc.0",
                                                    "1.31",
                                                    "1.31.2\n",
                                                    "v1.31.2",
                                                    "1..2",
                                                    "ci/",
                                                    "ci/stable\n"},
                                                   "1.-/cirstableSv\n", 3);
  for (const std::string& version : inputs) {
    EXPECT_EQ(ResolveKubernetesVersion(version), OracleResolveKubernetesVersion(version))
        << version;
  }
}

}  // namespace
}  // namespace kkadm::config
