// Tests for DryRunInitSystem (records, prints, changes nothing, answers queries honestly) and
// AnnouncingInitSystem (says each change, then makes it).
#include "app/util/init_system_dry_run.h"

#include <gtest/gtest.h>

#include <sstream>

#include "app/util/init_system_announcing.h"
#include "tests/fakes/recording_init_system.h"

namespace kkadm::util {
namespace {

TEST(DryRunInitSystemTest, RecordsAndPrintsChanges) {
  std::ostringstream out;
  Printer printer(out);
  testing::RecordingInitSystem real;
  DryRunInitSystem dry(printer, &real);
  ASSERT_TRUE(dry.Stop("kubelet.service").ok());
  ASSERT_TRUE(dry.DaemonReload().ok());
  ASSERT_TRUE(dry.Enable("kubelet.service").ok());
  ASSERT_TRUE(dry.Restart("containerd.service").ok());
  ASSERT_TRUE(dry.Disable("kubelet.service").ok());
  ASSERT_TRUE(dry.Start("etcd").ok());
  ASSERT_TRUE(dry.ReloadIfStale("kubelet.service", {}).ok());
  EXPECT_EQ(out.str(),
            "[dryrun] Would stop the kubelet service\n"
            "[dryrun] Would reload the systemd manager configuration\n"
            "[dryrun] Would enable the kubelet service\n"
            "[dryrun] Would restart the containerd service\n"
            "[dryrun] Would disable the kubelet service\n"
            "[dryrun] Would start the etcd service\n"
            "[dryrun] Would reload the systemd manager configuration if its kubelet unit is out "
            "of date\n");
  EXPECT_EQ(dry.actions().size(), 7u);
  EXPECT_TRUE(real.calls.empty());
}

TEST(DryRunInitSystemTest, QueriesGoToTheRealOneOrAreUnknown) {
  std::ostringstream out;
  Printer printer(out);
  testing::RecordingInitSystem real;
  real.active.insert("kubelet.service");
  real.loaded.insert("kubelet.service");
  DryRunInitSystem with_real(printer, &real);
  EXPECT_TRUE(*with_real.IsActive("kubelet.service"));
  EXPECT_FALSE(*with_real.IsEnabled("kubelet.service"));
  EXPECT_TRUE(*with_real.Exists("kubelet.service"));

  DryRunInitSystem alone(printer, nullptr);
  auto active = alone.IsActive("kubelet.service");
  ASSERT_FALSE(active.has_value());
  EXPECT_EQ(active.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(active.error().message().find("unknown"), std::string::npos);
  EXPECT_FALSE(alone.Exists("kubelet.service").has_value());
  EXPECT_FALSE(alone.IsEnabled("kubelet.service").has_value());
}

TEST(AnnouncingInitSystemTest, SaysEachChangeThenMakesIt) {
  std::ostringstream out;
  Printer printer(out);
  testing::RecordingInitSystem real;
  real.active.insert("kubelet.service");
  AnnouncingInitSystem init(real, printer, "reset");
  ASSERT_TRUE(init.Stop("kubelet.service").ok());
  ASSERT_TRUE(init.DaemonReload().ok());
  ASSERT_TRUE(init.Enable("kubelet.service").ok());
  ASSERT_TRUE(init.Restart("containerd.service").ok());
  ASSERT_TRUE(init.Disable("kubelet.service").ok());
  ASSERT_TRUE(init.Start("etcd").ok());
  ASSERT_TRUE(init.ReloadIfStale("kubelet.service", {}).ok());
  EXPECT_EQ(out.str(),
            "[reset] Stopping the kubelet service\n"
            "[reset] Reloading the systemd manager configuration\n"
            "[reset] Enabling the kubelet service\n"
            "[reset] Restarting the containerd service\n"
            "[reset] Disabling the kubelet service\n"
            "[reset] Starting the etcd service\n");
  EXPECT_EQ(real.calls.size(), 7u);
  EXPECT_FALSE(*init.IsActive("kubelet.service"));
  real.fail["stop"] = Unavailable("no bus");
  EXPECT_EQ(init.Stop("kubelet.service").message(), "no bus");
}

}  // namespace
}  // namespace kkadm::util
