// An unset criSocket is what the command's detector finds (kubeadm's DetectCRISocket), a set one
// (file or --cri-socket) is kept, and without a detector it is containerd's (skipCRIDetect).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/config/make_config.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_release_versions.h"

namespace kkadm::config {
namespace {

using kkadm::testing::BuiltInVersions;
using kkadm::testing::FakeMachine;

constexpr const char* kDetectedCrioSocket = "unix:///var/run/crio/crio.sock";

CriSocketDetector DetectorFinding(std::string socket, int* calls) {
  return [socket, calls]() -> Result<std::string> {
    ++*calls;
    return socket;
  };
}

ConfigSource CriSocketFile(const std::string& text) { return ConfigSource{"kkadm.yaml", text}; }

TEST(CriSocketDefaultTest, UnsetIsDetectedForInitJoinAndReset) {
  FakeMachine machine;
  int calls = 0;
  auto init = MakeInitConfiguration(std::nullopt, {}, machine, BuiltInVersions(),
                                    DetectorFinding(kDetectedCrioSocket, &calls));
  ASSERT_TRUE(init) << init.error().message();
  EXPECT_EQ(init->cfg.node_registration.cri_socket, kDetectedCrioSocket);
  JoinFlags join_flags;
  join_flags.endpoint = "10.0.0.1:6443";
  join_flags.token = "abcdef.0123456789abcdef";
  join_flags.discovery_token_unsafe_skip_ca_verification = true;
  auto join = MakeJoinConfiguration(std::nullopt, join_flags, machine,
                                    DetectorFinding(kDetectedCrioSocket, &calls));
  ASSERT_TRUE(join) << join.error().message();
  EXPECT_EQ(join->cfg.node_registration.cri_socket, kDetectedCrioSocket);
  auto reset =
      MakeResetConfiguration(std::nullopt, {}, DetectorFinding(kDetectedCrioSocket, &calls));
  ASSERT_TRUE(reset) << reset.error().message();
  EXPECT_EQ(reset->cfg.cri_socket, kDetectedCrioSocket);
  EXPECT_EQ(calls, 3);
}

TEST(CriSocketDefaultTest, ASetSocketIsKeptAndNotDetected) {
  FakeMachine machine;
  int calls = 0;
  InitFlags flags;
  flags.cri_socket = "/run/k.sock";
  auto by_flag = MakeInitConfiguration(std::nullopt, flags, machine, BuiltInVersions(),
                                       DetectorFinding(kDetectedCrioSocket, &calls));
  ASSERT_TRUE(by_flag);
  EXPECT_EQ(by_flag->cfg.node_registration.cri_socket, "unix:///run/k.sock");
  auto by_file = MakeInitConfiguration(CriSocketFile("apiVersion: kubeadm.k8s.io/v1beta4\n"
                                                     "kind: InitConfiguration\n"
                                                     "nodeRegistration:\n"
                                                     "  criSocket: unix:///run/k.sock\n"),
                                       {}, machine, BuiltInVersions(),
                                       DetectorFinding(kDetectedCrioSocket, &calls));
  ASSERT_TRUE(by_file) << by_file.error().message();
  EXPECT_EQ(by_file->cfg.node_registration.cri_socket, "unix:///run/k.sock");
  EXPECT_EQ(calls, 0);
}

TEST(CriSocketDefaultTest, WithoutADetectorContainerdsAndADetectorsErrorFails) {
  FakeMachine machine;
  auto init = MakeInitConfiguration(std::nullopt, {}, machine, BuiltInVersions());
  ASSERT_TRUE(init);
  EXPECT_EQ(init->cfg.node_registration.cri_socket, "unix:///var/run/containerd/containerd.sock");
  auto failed = MakeInitConfiguration(std::nullopt, {}, machine, BuiltInVersions(), [] {
    return Result<std::string>(InvalidArgument("found multiple CRI endpoints on the host. ..."));
  });
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().message(), "found multiple CRI endpoints on the host. ...");
}

}  // namespace
}  // namespace kkadm::config
