// kubernetesVersion validation against the regex-based check it replaced, kept as the oracle.
#include <gtest/gtest.h>

#include "app/config/defaults.h"
#include "app/config/validate.h"
#include "build_info.h"
#include "tests/fakes/regex_oracle.h"

namespace kkadm::config {
namespace {

// validate_cluster.cc's ValidateVersion before, with the same messages.
Status OracleValidateVersion(const std::string& version) {
  std::vector<std::string> warnings;
  Checker check("kubeadm.yaml", warnings);
  static const std::regex kVersion(R"(v(\d+)\.(\d+)\.(\d+)([-+][0-9A-Za-z.+-]*)?)");
  static const std::regex kOwn(R"(v(\d+)\.(\d+)\..*)");
  std::smatch m, own;
  std::string built_in = build_info::kKubernetesVersion;
  if (!std::regex_match(version, m, kVersion)) {
    check.Fail("kubernetesVersion", version, "must be a semantic version such as v1.32.0");
    return check.status();
  }
  int major = std::stoi(m[1]), minor = std::stoi(m[2]);
  std::regex_match(built_in, own, kOwn);
  int own_minor = std::stoi(own[2]);
  if (major != 1 || minor < 29) {
    check.Fail("kubernetesVersion", version,
               "this version of kkadm only supports deploying clusters with the control plane "
               "version >= v1.29.0");
  } else if (minor > own_minor + 1) {
    check.Fail("kubernetesVersion", version,
               "this version of kkadm only supports deploying clusters with the control plane "
               "version <= v1." +
                   std::to_string(own_minor + 1));
  }
  return check.status();
}

Status ValidateVersion(const std::string& version) {
  ClusterConfiguration cfg;
  SetClusterDefaults(cfg);
  cfg.kubernetes_version = version;
  std::vector<std::string> warnings;
  return ValidateClusterConfiguration(cfg, "kubeadm.yaml", warnings);
}

TEST(ValidateClusterTest, VersionAgreesWithTheRegexCheck) {
  ASSERT_TRUE(ValidateVersion(build_info::kKubernetesVersion).ok());
  const auto inputs = kkadm::testing::OracleInputs(
      {"v1.32.0",         "v1.29.0",   "v1.28.9",  "v1.33.1",     "v1.34.0",
       "v2.0.0",          "1.32.0",    "V1.32.0",  "v1.32",       "v1.32.0-rc.1",
       "v1.32.0+build.7", "v1.32.0-",  "v1.32.0+", "v1.32.0-a_b", "v1.32.0-a+b.c-d",
       "v01.032.00",      "v1.32.0\n", "v1..0",    "v1.32.0 ",    "v1.32.0.1"},
      "v0139.-+aZ_ \n", 4);
  for (const std::string& version : inputs) {
    const Status want = OracleValidateVersion(version);
    const Status got = ValidateVersion(version);
    EXPECT_EQ(got.ok(), want.ok()) << version;
    EXPECT_EQ(got.message(), want.message()) << version;
  }
}

// Numbers too large for an int, where the regex-based check threw std::out_of_range.
TEST(ValidateClusterTest, HugeVersionNumbersAreOutOfRange) {
  Status minor = ValidateVersion("v1.99999999999.0");
  EXPECT_FALSE(minor.ok());
  EXPECT_NE(minor.message().find("<= v1."), std::string::npos) << minor.message();
  Status major = ValidateVersion("v99999999999.1.0");
  EXPECT_FALSE(major.ok());
  EXPECT_NE(major.message().find(">= v1.29.0"), std::string::npos) << major.message();
}

}  // namespace
}  // namespace kkadm::config
