// SystemdInitSystem against a REAL systemd (tests/util/systemd_instance.h): unit lifecycle,
// reloads only for changed units, systemd's errors; and an unreachable bus.
#include "app/util/init_system_systemd.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/util/systemd_instance.h"

namespace kkadm::util {
namespace {

namespace fs = std::filesystem;
using kkadm::testing::SystemdInitSystemTest;
using kkadm::testing::WriteTextFile;

TEST(SystemdInitSystemUnreachableTest, MissingBusIsUnavailable) {
  SystemdInitSystem init("unix:path=/nonexistent/kkadm/system_bus_socket");
  auto active = init.IsActive("kubelet.service");
  ASSERT_FALSE(active.has_value());
  EXPECT_EQ(active.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(active.error().message().find("/nonexistent/kkadm/system_bus_socket"),
            std::string::npos)
      << active.error().message();
  EXPECT_EQ(init.Start("kubelet.service").code(), StatusCode::kUnavailable);
}

TEST(SystemdInitSystemUnreachableTest, FactoryReadsEnvironment) {
  ::setenv("KKADM_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/kkadm/env_socket", 1);
  auto init = NewSystemdInitSystem("");
  ::unsetenv("KKADM_SYSTEM_BUS_ADDRESS");
  Status s = init->DaemonReload();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("env_socket"), std::string::npos) << s.message();
}

TEST_F(SystemdInitSystemTest, UnitLifecycle) {
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  EXPECT_FALSE(*init.Exists("kkdemo.service"));
  EXPECT_FALSE(*init.IsActive("kkdemo.service"));
  EXPECT_FALSE(*init.IsEnabled("kkdemo.service"));
  WriteTextFile(
      Units() + "/kkdemo.service",
      "[Service]\nExecStart=/usr/bin/sleep infinity\n[Install]\nWantedBy=multi-user.target\n",
      fs::perms(0644));
  ASSERT_TRUE(init.DaemonReload().ok());
  EXPECT_TRUE(*init.Exists("kkdemo.service"));

  ASSERT_TRUE(init.Enable("kkdemo.service").ok());
  EXPECT_TRUE(*init.IsEnabled("kkdemo.service"));
  EXPECT_TRUE(fs::is_symlink(Units() + "/multi-user.target.wants/kkdemo.service"));
  Status started = init.Start("kkdemo.service");
  ASSERT_TRUE(started.ok()) << started.message();
  EXPECT_TRUE(*init.IsActive("kkdemo.service"));
  ASSERT_TRUE(init.Restart("kkdemo.service").ok());
  EXPECT_TRUE(*init.IsActive("kkdemo.service"));
  ASSERT_TRUE(init.Stop("kkdemo.service").ok());
  EXPECT_FALSE(*init.IsActive("kkdemo.service"));
  ASSERT_TRUE(init.Disable("kkdemo.service").ok());
  EXPECT_FALSE(*init.IsEnabled("kkdemo.service"));
  EXPECT_FALSE(fs::exists(Units() + "/multi-user.target.wants/kkdemo.service"));
}

// A unit systemd has not loaded, or found missing before it was written, is read as it is: no
// reload. A loaded unit whose file changed, or that was loaded without a drop-in just written, is
// reloaded. A running witness unit whose file changed after it was loaded shows whether systemd
// reloaded: its NeedDaemonReload only clears on a reload (a unit that is not running would be
// unloaded and read afresh by the next query).
TEST_F(SystemdInitSystemTest, ReloadIfStaleReloadsOnlyForChangedUnits) {
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  auto make_witness_stale = [&](const std::string& seconds) {
    WriteTextFile(Units() + "/kkwitness.service",
                  "[Service]\nExecStart=/usr/bin/sleep " + seconds + "\n", fs::perms(0644));
  };
  make_witness_stale("1001");
  ASSERT_TRUE(init.Start("kkwitness.service").ok());
  make_witness_stale("1002");
  ASSERT_EQ(NeedDaemonReload("kkwitness"), "b true\n");

  const std::string unit_file = "/etc/systemd/system/kkfresh.service";
  const std::string drop_in = "/etc/systemd/system/kkfresh.service.d/10-new.conf";
  EXPECT_EQ(init.Stop("kkfresh.service").code(), StatusCode::kNotFound);
  WriteTextFile(Units() + "/kkfresh.service", "[Service]\nExecStart=/usr/bin/sleep 2001\n",
                fs::perms(0644));
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file}).ok());
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b true\n");  // not reloaded
  ASSERT_TRUE(init.Start("kkfresh.service").ok());
  const std::string exec_start =
      "get-property org.freedesktop.systemd1 "
      "/org/freedesktop/systemd1/unit/kkfresh_2eservice "
      "org.freedesktop.systemd1.Service ExecStart";
  EXPECT_NE(Busctl(exec_start).find("2001"), std::string::npos);
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file}).ok());
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b true\n");  // still current: not reloaded

  // systemd does not see a drop-in new to a loaded unit (NeedDaemonReload stays false).
  WriteTextFile(Units() + "/kkfresh.service.d/10-new.conf",
                "[Service]\nExecStart=\nExecStart=/usr/bin/sleep 2002\n", fs::perms(0644));
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file, drop_in}).ok());
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b false\n");  // reloaded
  ASSERT_TRUE(init.Restart("kkfresh.service").ok());
  EXPECT_NE(Busctl(exec_start).find("2002"), std::string::npos);

  make_witness_stale("1003");
  WriteTextFile(Units() + "/kkfresh.service", "[Service]\nExecStart=/usr/bin/sleep 2003\n",
                fs::perms(0644));
  ASSERT_EQ(NeedDaemonReload("kkfresh"), "b true\n");
  ASSERT_TRUE(init.ReloadIfStale("kkfresh.service", {unit_file, drop_in}).ok());
  EXPECT_EQ(NeedDaemonReload("kkfresh"), "b false\n");
  EXPECT_EQ(NeedDaemonReload("kkwitness"), "b false\n");  // reloaded
  ASSERT_TRUE(init.Stop("kkfresh.service").ok());
  ASSERT_TRUE(init.Stop("kkwitness.service").ok());
}

TEST_F(SystemdInitSystemTest, ErrorsCarrySystemdsNameAndMessage) {
  SystemdInitSystem init(instance_->BusAddress(), std::chrono::seconds(30));
  Status stop = init.Stop("kk-no-such-unit.service");
  EXPECT_EQ(stop.code(), StatusCode::kNotFound);
  EXPECT_NE(stop.message().find("org.freedesktop.systemd1.NoSuchUnit"), std::string::npos)
      << stop.message();
  EXPECT_FALSE(*init.IsEnabled("kk-no-such-unit.service"));

  WriteTextFile(Units() + "/kkfail.service", "[Service]\nType=oneshot\nExecStart=/bin/false\n",
                fs::perms(0644));
  ASSERT_TRUE(init.DaemonReload().ok());
  Status start = init.Start("kkfail.service");
  EXPECT_EQ(start.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(start.message().find("\"failed\""), std::string::npos) << start.message();
}

}  // namespace
}  // namespace kkadm::util
