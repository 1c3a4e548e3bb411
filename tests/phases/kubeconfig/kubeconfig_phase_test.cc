#include "app/phases/init/kubeconfig_phase.h"

#include <gtest/gtest.h>

#include "app/phases/init/certs_phase.h"
#include "tests/phases/certs/test_node.h"

namespace kkadm::phases {
namespace {

Status RunTree(const workflow::Phase& phase) {
  if (phase.run) KKADM_RETURN_IF_ERROR(phase.run());
  for (const auto& child : phase.children) KKADM_RETURN_IF_ERROR(RunTree(child));
  return Status();
}

TEST(KubeconfigPhaseTest, TreeAndWholeRun) {
  testing::TestNode node;
  node.data.kubeconfig_dir = "/etc/kubernetes";
  workflow::Phase certs = NewCertsPhase(node.data);
  workflow::Phase phase = NewKubeconfigPhase(node.data);
  EXPECT_EQ(phase.name, "kubeconfig");
  std::vector<std::string> names;
  for (const auto& c : phase.children) names.push_back(c.name);
  EXPECT_EQ(names, (std::vector<std::string>{"admin", "super-admin", "kubelet",
                                             "controller-manager", "scheduler"}));
  EXPECT_EQ(phase.children[0].description,
            "Generate a kubeconfig file for the admin to use and for kubeadm itself");
  EXPECT_NE(std::find(phase.children[2].inherit_flags.begin(),
                      phase.children[2].inherit_flags.end(), "node-name"),
            phase.children[2].inherit_flags.end());
  ASSERT_TRUE(RunTree(certs).ok());
  node.TakeOutput();
  ASSERT_TRUE(RunTree(phase).ok());
  EXPECT_EQ(node.TakeOutput(),
            "[kubeconfig] Using kubeconfig folder \"/etc/kubernetes\"\n"
            "[kubeconfig] Writing \"admin.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"super-admin.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"kubelet.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"controller-manager.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"scheduler.conf\" kubeconfig file\n");
  ASSERT_TRUE(RunTree(phase).ok());
  EXPECT_NE(node.TakeOutput().find(
                "[kubeconfig] Using existing kubeconfig file: \"/etc/kubernetes/kubelet.conf\"\n"),
            std::string::npos);
  // External CA: validation only.
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/ca.key").ok());
  node.data.external_ca = true;
  ASSERT_TRUE(RunTree(phase).ok());
  EXPECT_NE(
      node.TakeOutput().find("[kubeconfig] External CA mode: Using user provided scheduler.conf\n"),
      std::string::npos);
}

}  // namespace
}  // namespace kkadm::phases
