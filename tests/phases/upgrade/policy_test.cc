// Tests for kubeadm's upgrade version skew policy: each allowed and refused combination.
#include "app/phases/upgrade/policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kkadm::phases::upgrade {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

VersionSkewErrors Check(const std::string& cluster, const std::string& target,
                        std::vector<std::string> kubelets = {"v1.31.2"}, bool offered = false) {
  PolicyInput in{.cluster_version = cluster,
                 .tool_version = "v1.32.0",
                 .kubelet_versions = std::move(kubelets),
                 .target = target,
                 .offered = offered};
  auto errors = EnforceVersionPolicies(in);
  EXPECT_TRUE(errors.has_value()) << errors.error().message();
  return errors.has_value() ? *errors : VersionSkewErrors{};
}

TEST(UpgradePolicyTest, OneMinorUpAndPatchUpAreAllowed) {
  EXPECT_TRUE(Check("v1.31.2", "v1.32.0").empty());
  EXPECT_TRUE(Check("v1.32.0", "v1.32.0", {"v1.32.0"}).empty());
  EXPECT_TRUE(PolicyVerdict(Check("v1.31.2", "v1.32.0"), false).ok());
}

TEST(UpgradePolicyTest, TwoMinorsUpIsFatalEvenWithForce) {
  VersionSkewErrors e = Check("v1.31.2", "v1.33.0");
  EXPECT_THAT(e.mandatory,
              ElementsAre("Specified version to upgrade to \"v1.33.0\" is too high; kkadm can "
                          "upgrade only 1 minor version at a time",
                          "Specified version to upgrade to \"v1.33.0\" is at least one minor "
                          "release higher than the kkadm minor release (33 > 32). Such an upgrade "
                          "is not supported"));
  Status verdict = PolicyVerdict(e, /*force=*/true);
  EXPECT_EQ(verdict.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(verdict.message(), HasSubstr("invalid due to these fatal errors: - Specified"));
  EXPECT_THAT(verdict.message(), HasSubstr("Please fix the misalignments highlighted above"));
  EXPECT_EQ(verdict.message().find('\n'), std::string::npos);
}

TEST(UpgradePolicyTest, NewerMinorThanKkadmIsFatal) {
  VersionSkewErrors e = Check("v1.32.0", "v1.33.0", {"v1.32.0"});
  EXPECT_THAT(e.mandatory, ElementsAre(HasSubstr("higher than the kkadm minor release (33 > 32)")));
}

TEST(UpgradePolicyTest, NewerPatchThanKkadmIsSkippable) {
  VersionSkewErrors e = Check("v1.31.2", "v1.32.5");
  EXPECT_THAT(e.mandatory, IsEmpty());
  EXPECT_THAT(e.skippable,
              ElementsAre("Specified version to upgrade to \"v1.32.5\" is higher than the kkadm "
                          "version \"v1.32.0\". Upgrade kkadm first using the tool you used to "
                          "install kkadm"));
  EXPECT_THAT(PolicyVerdict(e, false).message(),
              HasSubstr("Can be bypassed if you pass the --force flag"));
  EXPECT_TRUE(PolicyVerdict(e, true).ok());
}

TEST(UpgradePolicyTest, DowngradeToAnOlderMinorNeedsForce) {
  VersionSkewErrors e = Check("v1.32.0", "v1.31.5", {"v1.31.2"});
  EXPECT_THAT(e.mandatory, IsEmpty());
  EXPECT_THAT(e.skippable, ElementsAre("kkadm version v1.32.0 can only be used to upgrade to "
                                       "Kubernetes version 1.32"));
  EXPECT_FALSE(PolicyVerdict(e, false).ok());
  EXPECT_TRUE(PolicyVerdict(e, true).ok());
}

TEST(UpgradePolicyTest, TwoMinorsDownAndBelowTheMinimumAreFatal) {
  VersionSkewErrors e = Check("v1.32.0", "v1.30.0", {"v1.30.0"});
  EXPECT_THAT(e.mandatory,
              ElementsAre("Specified version to upgrade to \"v1.30.0\" is equal to or lower than "
                          "the minimum supported version \"v1.31.0\". Please specify a higher "
                          "version to upgrade to",
                          "Specified version to downgrade to \"v1.30.0\" is too low; kkadm can "
                          "downgrade only 1 minor version at a time"));
}

TEST(UpgradePolicyTest, KubeletsMoreThanThreeMinorsBehindNeedForce) {
  EXPECT_TRUE(Check("v1.31.2", "v1.32.0", {"v1.31.2", "v1.29.0"}).empty());
  VersionSkewErrors e = Check("v1.31.2", "v1.32.0", {"v1.31.2", "v1.28.15", "v1.27.1"});
  EXPECT_THAT(e.skippable, ElementsAre("There are kubelets in this cluster that are too old that "
                                       "have these versions [v1.28.15 v1.27.1]"));
}

TEST(UpgradePolicyTest, PreReleasesNeedTheirFlag) {
  VersionSkewErrors e = Check("v1.31.2", "v1.32.0-rc.1");
  EXPECT_THAT(e.skippable,
              ElementsAre("Specified version to upgrade to \"v1.32.0-rc.1\" is an unstable "
                          "version and such upgrades weren't allowed via setting the "
                          "--allow-*-upgrades flags"));
  PolicyInput in{.cluster_version = "v1.31.2",
                 .tool_version = "v1.32.0",
                 .kubelet_versions = {},
                 .target = "v1.32.0-rc.1",
                 .allow_rc = true};
  EXPECT_TRUE(EnforceVersionPolicies(in)->empty());
  // A pre-release may jump two minors, with --force.
  VersionSkewErrors jump = Check("v1.30.2", "v1.32.0-alpha.1");
  EXPECT_THAT(jump.mandatory, IsEmpty());
  EXPECT_THAT(jump.skippable, ::testing::Contains(HasSubstr("is too high")));
}

TEST(UpgradePolicyTest, OfferedTargetsSkipTheToolChecksButNotTheKubelets) {
  EXPECT_TRUE(Check("v1.31.2", "v1.31.9", {"v1.31.2"}, /*offered=*/true).empty());
  EXPECT_FALSE(Check("v1.31.2", "v1.32.0", {"v1.28.0"}, /*offered=*/true).empty());
}

TEST(UpgradePolicyTest, UnparsableVersions) {
  PolicyInput in{.cluster_version = "v1.31.2",
                 .tool_version = "v1.32.0",
                 .kubelet_versions = {},
                 .target = "1.32"};
  EXPECT_EQ(EnforceVersionPolicies(in).error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(Check("v1.31.2", "v1.32.0", {"banana"}).skippable,
              ElementsAre("couldn't parse kubelet version banana"));
}

TEST(UpgradePolicyTest, ComparesPreReleasesAsSemver) {
  auto v = [](const char* s) { return *preflight::ParseSemVer(s); };
  EXPECT_LT(CompareSemVer(v("v1.32.0-rc.1"), v("v1.32.0")), 0);
  EXPECT_LT(CompareSemVer(v("v1.32.0-alpha.2"), v("v1.32.0-alpha.10")), 0);
  EXPECT_LT(CompareSemVer(v("v1.32.0-alpha.1"), v("v1.32.0-beta.0")), 0);
  EXPECT_EQ(CompareSemVer(v("v1.32.0+abc"), v("v1.32.0")), 0);
  EXPECT_EQ(PreRelease(v("v1.32.0-rc.1+abc")), "rc.1");
}

}  // namespace
}  // namespace kkadm::phases::upgrade
