#include "app/phases/controlplane/control_plane_phase.h"

#include <gtest/gtest.h>

#include "tests/phases/init_phase_fixture.h"

namespace kkadm::phases {
namespace {

using kkadm::testing::InitPhasesTest;

TEST_F(InitPhasesTest, ControlPlaneWritesThreeManifestsWithKubeadmLines) {
  workflow::Phase phase = NewControlPlanePhase(data_);
  ASSERT_EQ(phase.name, "control-plane");
  std::vector<std::string> names;
  for (const auto& child : phase.children) names.push_back(child.name);
  EXPECT_EQ(names, (std::vector<std::string>{"apiserver", "controller-manager", "scheduler"}));
  ASSERT_TRUE(RunTree(phase).ok());
  EXPECT_EQ(out_.str(),
            "[control-plane] Using manifest folder \"/etc/kubernetes/manifests\"\n"
            "[control-plane] Creating static Pod manifest for \"kube-apiserver\"\n"
            "[control-plane] Creating static Pod manifest for \"kube-controller-manager\"\n"
            "[control-plane] Creating static Pod manifest for \"kube-scheduler\"\n");
  for (const char* name : {"kube-apiserver", "kube-controller-manager", "kube-scheduler"}) {
    EXPECT_TRUE(fs_.Exists(std::string("/etc/kubernetes/manifests/") + name + ".yaml")) << name;
  }
}

TEST_F(InitPhasesTest, ControlPlaneUsesExternalCAFromData) {
  data_.external_ca = true;
  ASSERT_TRUE(RunTree(NewControlPlanePhase(data_)).ok());
  auto text = fs_.ReadFile("/etc/kubernetes/manifests/kube-controller-manager.yaml");
  ASSERT_TRUE(text.has_value());
  EXPECT_NE(text->find("    - --cluster-signing-key-file=\n"), std::string::npos);
}

TEST_F(InitPhasesTest, ControlPlanePatcherIsApplied) {
  ManifestPatcher patcher = [](const std::string& target,
                               nlohmann::json pod) -> Result<nlohmann::json> {
    pod["metadata"]["annotations"]["patched-target"] = target;
    return pod;
  };
  ASSERT_TRUE(RunTree(NewControlPlanePhase(data_, patcher)).ok());
  auto text = fs_.ReadFile("/etc/kubernetes/manifests/kube-scheduler.yaml");
  EXPECT_NE(text->find("patched-target: kube-scheduler"), std::string::npos);
}

}  // namespace
}  // namespace kkadm::phases
