// Tests for kubelet-finalize/enable-client-cert-rotation.
#include "app/phases/kubeletfinalize/kubelet_finalize.h"

#include <gtest/gtest.h>

#include "app/phases/init/kubelet_finalize_phase.h"
#include "app/util/yaml/yaml.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

const char kKubeletConf[] =
    "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: Q0E=\n"
    "    server: https://192.0.2.10:6443\n  name: kubernetes\ncontexts:\n- context:\n"
    "    cluster: kubernetes\n    user: system:node:cp-1\n  name: system:node:cp-1@kubernetes\n"
    "current-context: system:node:cp-1@kubernetes\nusers:\n- name: system:node:cp-1\n  user:\n"
    "    client-certificate-data: Q0VSVA==\n    client-key-data: S0VZ\n";

class KubeletFinalizeTest : public testing::ClusterPhasesTest {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf", kKubeletConf, 0600).ok());
  }
};

TEST_F(KubeletFinalizeTest, PointsKubeletConfAtTheRotatingCertificate) {
  ASSERT_TRUE(fs_.WriteFile("/var/lib/kubelet/pki/kubelet-client-current.pem", "PEM", 0600).ok());
  ASSERT_TRUE(RunTree(NewKubeletFinalizePhase(data_)).ok());
  EXPECT_EQ(out_.str(),
            "[kubelet-finalize] Updating \"/etc/kubernetes/kubelet.conf\" to point to a rotatable "
            "kubelet client certificate and key\n");
  auto doc = util::yaml::Read(*fs_.ReadFile("/etc/kubernetes/kubelet.conf"));
  ASSERT_TRUE(doc.has_value());
  const nlohmann::json user = (*doc)["users"][0]["user"];
  EXPECT_EQ(user, nlohmann::json(
                      {{"client-certificate", "/var/lib/kubelet/pki/kubelet-client-current.pem"},
                       {"client-key", "/var/lib/kubelet/pki/kubelet-client-current.pem"}}));
  EXPECT_EQ((*doc)["clusters"][0]["cluster"]["server"], "https://192.0.2.10:6443");
  EXPECT_EQ(fs_.Stat("/etc/kubernetes/kubelet.conf")->mode, 0600u);
  EXPECT_EQ(init_.calls, std::vector<std::string>{"restart kubelet.service"});
}

TEST_F(KubeletFinalizeTest, NothingWithoutTheCertificate) {
  ASSERT_TRUE(RunTree(NewKubeletFinalizePhase(data_)).ok());
  EXPECT_EQ(out_.str(), "");
  EXPECT_EQ(*fs_.ReadFile("/etc/kubernetes/kubelet.conf"), kKubeletConf);
  EXPECT_TRUE(init_.calls.empty());
}

TEST_F(KubeletFinalizeTest, HonoursKubeletCertDir) {
  data_.cfg.node_registration.kubelet_extra_args = {{"cert-dir", "/srv/kubelet-pki"}};
  ASSERT_TRUE(fs_.WriteFile("/srv/kubelet-pki/kubelet-client-current.pem", "PEM", 0600).ok());
  ASSERT_TRUE(RunTree(NewKubeletFinalizePhase(data_)).ok());
  EXPECT_NE(fs_.ReadFile("/etc/kubernetes/kubelet.conf")
                ->find("/srv/kubelet-pki/kubelet-client-current.pem"),
            std::string::npos);
}

TEST_F(KubeletFinalizeTest, MissingUserIsAnError) {
  ASSERT_TRUE(fs_.WriteFile("/var/lib/kubelet/pki/kubelet-client-current.pem", "PEM", 0600).ok());
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf",
                            "apiVersion: v1\nkind: Config\ncurrent-context: x\n", 0600)
                  .ok());
  Status s = RunTree(NewKubeletFinalizePhase(data_));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(init_.calls.empty());
}

}  // namespace
}  // namespace kkadm::phases
