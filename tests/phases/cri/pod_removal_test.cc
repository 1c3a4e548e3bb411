#include "app/phases/cri/pod_removal.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_container_runtime.h"

namespace kkadm::phases::cri {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class PodRemovalTest : public ::testing::Test {
 protected:
  PodRemovalTest() {
    runtime_.sandboxes = {{"p1", "etcd-node", "u1", "kube-system", util::SandboxState::kReady, {}},
                          {"p2", "", "", "", util::SandboxState::kNotReady, {}}};
    runtime_.containers = {{"c1", "p1", "etcd", "etcd:3.5", util::ContainerState::kRunning},
                           {"c2", "p1", "old", "etcd:3.5", util::ContainerState::kExited}};
  }
  std::vector<NotRemoved> Remove() {
    return RemoveKubernetesPods(runtime_, clock_, printer_, options_);
  }

  kkadm::testing::FakeContainerRuntime runtime_;
  kkadm::testing::FakeClock clock_;
  std::ostringstream output_;
  util::Printer printer_{output_};
  PodRemovalOptions options_;
};

TEST_F(PodRemovalTest, StopsAndRemovesEverySandboxAndItsContainers) {
  EXPECT_THAT(Remove(), IsEmpty());
  EXPECT_THAT(runtime_.sandboxes, IsEmpty());
  EXPECT_THAT(runtime_.containers, IsEmpty());
  EXPECT_THAT(runtime_.calls,
              ElementsAre("ListPodSandbox", "ListContainers p1", "StopContainer c1 10",
                          "RemoveContainer c1", "RemoveContainer c2", "StopPodSandbox p1",
                          "RemovePodSandbox p1", "ListContainers p2", "StopPodSandbox p2",
                          "RemovePodSandbox p2", "ListPodSandbox", "ListContainers"));
  EXPECT_EQ(output_.str(),
            "[reset] Removing 2 pod sandboxes (and their containers) from "
            "unix:///var/run/containerd/containerd.sock\n[reset] Removed 2 pod sandboxes\n");
}

TEST_F(PodRemovalTest, NothingToRemove) {
  runtime_.sandboxes.clear();
  EXPECT_THAT(Remove(), IsEmpty());
  EXPECT_THAT(output_.str(), HasSubstr("No pod sandboxes to remove"));
}

TEST_F(PodRemovalTest, RetriesATransientFailure) {
  runtime_.errors["StopPodSandbox"] = {Unavailable("rpc error: code = Unavailable desc = busy"),
                                       Unavailable("rpc error: code = Unavailable desc = busy")};
  EXPECT_THAT(Remove(), IsEmpty());
  EXPECT_THAT(runtime_.sandboxes, IsEmpty());
  EXPECT_EQ(clock_.slept(), 2 * options_.retry_pause);
}

TEST_F(PodRemovalTest, ReportsWhatCouldNotBeRemovedAfterItsAttempts) {
  for (int i = 0; i < 5; ++i) {
    runtime_.errors["RemovePodSandbox"].push_back(
        Internal("rpc error: code = Unknown desc = device busy"));
  }
  std::vector<NotRemoved> left = Remove();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].what, "pod sandbox p1 (kube-system/etcd-node)");
  EXPECT_EQ(left[0].reason,
            "failed to remove pod p1: rpc error: code = Unknown desc = device busy");
  EXPECT_EQ(clock_.slept(), 4 * options_.retry_pause);  // bounded: 5 attempts, 4 pauses
  EXPECT_THAT(output_.str(), ::testing::Not(HasSubstr("Removed 2")));
}

TEST_F(PodRemovalTest, ReportsWhatTheRuntimeStillLists) {
  runtime_.stuck = {"p2"};
  std::vector<NotRemoved> left = Remove();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].what, "pod sandbox p2");
  EXPECT_EQ(left[0].reason, "is still there");
}

TEST_F(PodRemovalTest, AListingThatFailsIsReported) {
  runtime_.errors["ListPodSandbox"] = {Unavailable("rpc error: code = Unavailable desc = down")};
  std::vector<NotRemoved> left = Remove();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].what, "unix:///var/run/containerd/containerd.sock");
  EXPECT_THAT(left[0].reason, HasSubstr("could not be listed: rpc error: code = Unavailable"));
}

TEST_F(PodRemovalTest, ADryRunChecksNothingAfterwards) {
  options_.verify = false;
  runtime_.stuck = {"p1", "p2"};
  EXPECT_THAT(Remove(), IsEmpty());
}

}  // namespace
}  // namespace kkadm::phases::cri
