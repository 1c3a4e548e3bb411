#include "app/phases/preflight/checks_cri.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/util/file_system_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::preflight {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kEndpoint = "unix:///var/run/containerd/containerd.sock";

class CriCheckTest : public ::testing::Test {
 protected:
  CriCheckTest() {
    options_.out = &printer_;
    machine_.unix_sockets.insert(SocketOnHost());
  }
  std::string SocketOnHost() const { return fs_.HostPath("/var/run/containerd/containerd.sock"); }
  CheckResult Run(const std::string& endpoint = kEndpoint) {
    return NewCriCheck(endpoint, options_)->Run(host_);
  }

  kkadm::testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  kkadm::testing::FakeInitSystem init_;
  kkadm::testing::FakeMachine machine_;
  kkadm::testing::FakeClock clock_;
  kkadm::testing::FakeHostSeams seams_;
  util::Host host_{seams_.Over(fs_, init_, clock_, machine_)};
  kkadm::testing::FakeContainerRuntime& runtime_ = seams_.network.runtime;
  std::ostringstream output_;
  util::Printer printer_{output_};
  CriCheckOptions options_;
};

TEST_F(CriCheckTest, ReportsTheRuntimeItAskedThroughTheSocketUnderTheRoot) {
  CheckResult result = Run();
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_THAT(result.warnings, IsEmpty());
  EXPECT_EQ(output_.str(), "[preflight] Container runtime containerd 1.6.20~ds1 (CRI API v1) at " +
                               std::string(kEndpoint) + ": network ready\n");
  ASSERT_EQ(seams_.network.cri_asked.size(), 1u);
  EXPECT_EQ(seams_.network.cri_asked[0].socket_path, SocketOnHost());
  EXPECT_THAT(runtime_.calls, ElementsAre("Version", "RuntimeStatus"));
  EXPECT_EQ(clock_.slept().count(), 0);
  // A bare path is a unix socket too.
  EXPECT_THAT(Run("/var/run/containerd/containerd.sock").errors, IsEmpty());
}

TEST_F(CriCheckTest, WaitsForASocketThatAppears) {
  machine_.unix_sockets.clear();
  clock_.on_sleep = [&] {
    if (clock_.slept() >= std::chrono::seconds(2)) machine_.unix_sockets.insert(SocketOnHost());
  };
  CheckResult result = Run();
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_EQ(clock_.slept(), std::chrono::seconds(2));
  EXPECT_THAT(output_.str(), HasSubstr("[preflight] Waiting up to 10s for the container "
                                       "runtime's socket " +
                                       SocketOnHost() + "\n"));
}

TEST_F(CriCheckTest, NoSocketAfterTheWaitIsKubeadmsError) {
  machine_.unix_sockets.clear();
  options_.socket_wait = std::chrono::seconds(3);
  CheckResult result = Run();
  EXPECT_GE(clock_.slept(), std::chrono::seconds(3));
  EXPECT_LT(clock_.slept(), std::chrono::milliseconds(3200));
  EXPECT_THAT(result.errors,
              ElementsAre("container runtime is not running: rpc error: code = Unavailable desc = "
                          "connection error: desc = \"transport: Error while dialing: dial unix "
                          "/var/run/containerd/containerd.sock: connect: no such file or "
                          "directory\""));
  EXPECT_TRUE(seams_.network.cri_asked.empty());
}

TEST_F(CriCheckTest, NoWaitWhenTheWaitIsZero) {
  machine_.unix_sockets.clear();
  options_.socket_wait = std::chrono::seconds(0);
  EXPECT_EQ(Run().errors.size(), 1u);
  EXPECT_EQ(clock_.slept().count(), 0);
  EXPECT_EQ(output_.str(), "");
}

TEST_F(CriCheckTest, UnsupportedEndpoint) {
  EXPECT_THAT(Run("npipe:////./pipe/containerd").errors,
              ElementsAre(HasSubstr("unsupported CRI endpoint")));
}

TEST_F(CriCheckTest, RuntimeErrorsAndNotReady) {
  runtime_.errors["Version"].push_back(
      Unavailable("rpc error: code = Unavailable desc = connection refused"));
  EXPECT_THAT(Run().errors, ElementsAre("container runtime is not running: rpc error: code = "
                                        "Unavailable desc = connection refused"));
  runtime_.status.conditions[0] = {"RuntimeReady", false, "Broken", "runc is missing"};
  EXPECT_THAT(
      Run().errors,
      ElementsAre("container runtime is not running: container runtime condition "
                  "\"RuntimeReady\" is not true. reason: Broken, message: runc is missing"));
}

TEST_F(CriCheckTest, NetworkNotReadyIsNoError) {
  runtime_.status.conditions[1] = {"NetworkReady", false, "NetworkPluginNotReady", "no CNI"};
  CheckResult result = Run();
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_THAT(output_.str(), HasSubstr("network not ready (NetworkPluginNotReady)"));
}

TEST_F(CriCheckTest, CgroupDriverComparedWhenTheRuntimeReportsOne) {
  options_.kubelet_cgroup_driver = "systemd";
  EXPECT_THAT(Run().warnings, IsEmpty());  // containerd 1.6: not reported
  runtime_.cgroup_driver = "systemd";
  EXPECT_THAT(Run().warnings, IsEmpty());
  runtime_.cgroup_driver = "cgroupfs";
  CheckResult result = Run();
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_THAT(result.warnings,
              ElementsAre(HasSubstr("the container runtime uses the \"cgroupfs\" cgroup driver "
                                    "but the kubelet is configured for \"systemd\"")));
}

TEST(CriSocketWaitTest, NoWaitWhenTheCheckIsIgnored) {
  const std::chrono::milliseconds wait = std::chrono::seconds(10);
  EXPECT_EQ(CriSocketWait(wait, {}), wait);
  EXPECT_EQ(CriSocketWait(wait, {"swap"}), wait);
  EXPECT_EQ(CriSocketWait(wait, {"cri"}).count(), 0);
  EXPECT_EQ(CriSocketWait(wait, {"all"}).count(), 0);
}

TEST(KubeletCgroupDriverTest, FromTheDocumentOrTheFallback) {
  EXPECT_EQ(KubeletCgroupDriver(nullptr, "systemd"), "systemd");
  EXPECT_EQ(KubeletCgroupDriver({{"cgroupDriver", "cgroupfs"}}, "systemd"), "cgroupfs");
  EXPECT_EQ(KubeletCgroupDriver({{"cgroupDriver", ""}}, ""), "");
}

}  // namespace
}  // namespace kkadm::phases::preflight
