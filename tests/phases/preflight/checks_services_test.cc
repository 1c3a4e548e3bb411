#include "app/phases/preflight/checks_services.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/phases/preflight/preflight_test_env.h"

namespace kkadm::phases::preflight {
namespace {

using kkadm::testing::PreflightEnv;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(PreflightServiceChecksTest, KubeletEnabledPasses) {
  PreflightEnv env;
  auto check = NewServiceCheck("kubelet");
  EXPECT_EQ(check->Name(), "Service-Kubelet");
  auto result = env.Run(*check);
  EXPECT_THAT(result.warnings, IsEmpty());
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_THAT(env.init.calls, ElementsAre("Exists kubelet.service", "IsEnabled kubelet.service"));
}

TEST(PreflightServiceChecksTest, KubeletDisabledOrMissingWarns) {
  PreflightEnv env;
  auto check = NewServiceCheck("kubelet");
  env.init.units["kubelet.service"].enabled = false;
  EXPECT_THAT(env.Run(*check).warnings,
              ElementsAre("kubelet service is not enabled, please run 'systemctl enable "
                          "kubelet.service'"));
  env.init.units.erase("kubelet.service");
  auto result = env.Run(*check);
  EXPECT_THAT(result.warnings, ElementsAre("kubelet service does not exist"));
  EXPECT_THAT(result.errors, IsEmpty());
}

TEST(PreflightServiceChecksTest, UnreachableInitSystemWarnsAboutSystemd) {
  PreflightEnv env;
  env.init.unreachable = true;
  auto result = env.Run(*NewServiceCheck("kubelet"));
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_THAT(result.warnings[0], HasSubstr("no supported init system detected"));
  EXPECT_THAT(result.warnings[0], HasSubstr("kubelet-start phase will need systemd"));
  EXPECT_THAT(result.errors, IsEmpty());
}

TEST(PreflightServiceChecksTest, FirewalldActiveWarnsWithPorts) {
  PreflightEnv env;
  auto check = NewFirewalldCheck({6443, 10250});
  EXPECT_EQ(check->Name(), "Firewalld");
  EXPECT_THAT(env.Run(*check).warnings, IsEmpty());
  env.init.units["firewalld.service"] = {.exists = true, .enabled = true, .active = false};
  EXPECT_THAT(env.Run(*check).warnings, IsEmpty());
  env.init.units["firewalld.service"].active = true;
  EXPECT_THAT(env.Run(*check).warnings,
              ElementsAre("firewalld is active, please ensure ports [6443 10250] are open or your "
                          "cluster may not function correctly"));
}

}  // namespace
}  // namespace kkadm::phases::preflight
