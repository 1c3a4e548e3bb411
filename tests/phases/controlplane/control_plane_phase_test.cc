#include "app/phases/init/control_plane_phase.h"

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

util::patches::Patcher PatcherOf(std::vector<util::patches::PatchFile> files, util::Printer& out) {
  auto set = util::patches::LoadPatchSet(files);
  EXPECT_TRUE(set.has_value()) << set.error().message();
  return util::patches::Patcher("/patches", std::move(*set), out);
}

TEST_F(InitPhasesTest, ControlPlaneAppliesTheCommandsPatchesWithKubeadmLines) {
  data_.patches = PatcherOf(
      {{"/patches/kube-scheduler.yaml", "metadata:\n  annotations:\n    patched: \"yes\"\n"}},
      printer_);
  ASSERT_TRUE(RunTree(NewControlPlanePhase(data_)).ok());
  auto text = fs_.ReadFile("/etc/kubernetes/manifests/kube-scheduler.yaml");
  ASSERT_TRUE(text.has_value());
  EXPECT_NE(text->find("    patched: \"yes\"\n"), std::string::npos) << *text;
  auto apiserver = fs_.ReadFile("/etc/kubernetes/manifests/kube-apiserver.yaml");
  EXPECT_EQ(apiserver->find("patched"), std::string::npos);
  // The patch directory is described once, at the first manifest, as kubeadm's PatchManager does.
  EXPECT_EQ(out_.str(),
            "[control-plane] Using manifest folder \"/etc/kubernetes/manifests\"\n"
            "[control-plane] Creating static Pod manifest for \"kube-apiserver\"\n"
            "[patches] Reading patches from path \"/patches\"\n"
            "[patches] Found the following patch files: [kube-scheduler.yaml]\n"
            "[control-plane] Creating static Pod manifest for \"kube-controller-manager\"\n"
            "[control-plane] Creating static Pod manifest for \"kube-scheduler\"\n"
            "[patches] Applied patch of type \"application/strategic-merge-patch+json\" to target "
            "\"kube-scheduler\"\n");
}

TEST_F(InitPhasesTest, ControlPlaneCheckRefusesAPatchThatDoesNotApplyAndWritesNothing) {
  data_.patches = PatcherOf(
      {{"/patches/kube-apiserver+json.yaml", "- {op: replace, path: /spec/nodeName, value: x}\n"}},
      printer_);
  workflow::Phase phase = NewControlPlanePhase(data_);
  ASSERT_TRUE(phase.children[1].check);
  EXPECT_TRUE(phase.children[1].check().ok());  // controller-manager has no patch
  Status status = phase.children[0].check();
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "patching the \"kube-apiserver\" manifest: /patches/kube-apiserver+json.yaml: invalid "
            "JSON patch: operation 1 (\"replace\" /spec/nodeName): path not found");
  EXPECT_EQ(out_.str(), "");
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/manifests"));
}

}  // namespace
}  // namespace kkadm::phases
