// Tests for upload-config: ConfigMaps kubeadm-config and kubelet-config, their RBAC, and the
// Node's CRI socket annotation.
#include "app/phases/uploadconfig/upload_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/init/upload_config_phase.h"
#include "app/util/yaml/yaml.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

const char kCm[] = "/api/v1/namespaces/kube-system/configmaps/";
const char kRbac[] = "/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/";

json Subject(const std::string& name) {
  return {{"kind", "Group"}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", name}};
}

class UploadConfigTest : public testing::ClusterPhasesTest {
 protected:
  void SetUp() override {
    data_.cluster_config_yaml = [] {
      return std::string("apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n");
    };
    client_.Put("/api/v1/nodes/cp-1",
                {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "cp-1"}}}});
  }
};

TEST_F(UploadConfigTest, UploadsBothConfigMapsWithRbacAndAnnotatesTheNode) {
  ASSERT_TRUE(RunTree(NewUploadConfigPhase(data_)).ok());
  EXPECT_EQ(out_.str(),
            "[upload-config] Storing the configuration used in ConfigMap \"kubeadm-config\" in the "
            "\"kube-system\" Namespace\n"
            "[kubelet] Creating a ConfigMap \"kubelet-config\" in namespace kube-system with the "
            "configuration for the kubelets in the cluster\n");
  json kubeadm_config = client_.Object(std::string(kCm) + "kubeadm-config");
  EXPECT_EQ(kubeadm_config["data"],
            json({{"ClusterConfiguration",
                   "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"}}));
  json role = client_.Object(std::string(kRbac) + "roles/kubeadm:nodes-kubeadm-config");
  EXPECT_EQ(
      role["rules"],
      json::parse(
          R"([{"verbs":["get"],"apiGroups":[""],"resources":["configmaps"],"resourceNames":["kubeadm-config"]}])"));
  json binding = client_.Object(std::string(kRbac) + "rolebindings/kubeadm:nodes-kubeadm-config");
  EXPECT_EQ(binding["roleRef"], json({{"apiGroup", "rbac.authorization.k8s.io"},
                                      {"kind", "Role"},
                                      {"name", "kubeadm:nodes-kubeadm-config"}}));
  EXPECT_EQ(binding["subjects"],
            json::array({Subject("system:bootstrappers:kubeadm:default-node-token"),
                         Subject("system:nodes")}));

  json kubelet_config = client_.Object(std::string(kCm) + "kubelet-config");
  auto doc = util::yaml::Read(kubelet_config["data"]["kubelet"].get<std::string>());
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ((*doc)["kind"], "KubeletConfiguration");
  EXPECT_EQ((*doc)["clusterDNS"], json::array({"10.96.0.10"}));
  EXPECT_EQ((*doc)["staticPodPath"], "/etc/kubernetes/manifests");
  const std::string hash =
      kubelet_config["metadata"]["annotations"]["kubeadm.kubernetes.io/component-config.hash"];
  EXPECT_EQ(hash, ConfigMapChecksum(kubelet_config));
  EXPECT_EQ(hash.rfind("sha256:", 0), 0u);
  EXPECT_EQ(hash.size(), 7u + 64u);
  json kubelet_binding = client_.Object(std::string(kRbac) + "rolebindings/kubeadm:kubelet-config");
  EXPECT_EQ(kubelet_binding["subjects"],
            json::array({Subject("system:nodes"),
                         Subject("system:bootstrappers:kubeadm:default-node-token")}));
  json kubelet_role = client_.Object(std::string(kRbac) + "roles/kubeadm:kubelet-config");
  EXPECT_EQ(kubelet_role["rules"][0]["resourceNames"], json::array({"kubelet-config"}));

  EXPECT_EQ(client_.Object("/api/v1/nodes/cp-1")["metadata"]["annotations"]
                                                ["kubeadm.alpha.kubernetes.io/cri-socket"],
            "unix:///var/run/containerd/containerd.sock");
}

TEST_F(UploadConfigTest, ChecksumMatchesKubeadmDefinition) {
  // printf 'a1b2' | sha256sum: keys sorted, each key followed by its value.
  json cm = {{"data", {{"b", "2"}, {"a", "1"}}}};
  EXPECT_EQ(ConfigMapChecksum(cm),
            "sha256:85337816d263d362acb23a4255a636191075c2a90c47f2ee6db3362f7df11203");
}

TEST_F(UploadConfigTest, ExistingConfigMapIsUpdated) {
  client_.Put(std::string(kCm) + "kubeadm-config",
              util::ConfigMap("kube-system", "kubeadm-config", {{"ClusterConfiguration", "old"}}));
  ASSERT_TRUE(RunTree(NewUploadConfigPhase(data_)).ok());
  EXPECT_NE(client_.Object(std::string(kCm) + "kubeadm-config")["data"]["ClusterConfiguration"],
            "old");
}

TEST_F(UploadConfigTest, WaitsForTheNodeThenGivesUp) {
  data_.cfg.node_registration.name = "missing";
  data_.cfg.timeouts.kubernetes_api_call = std::chrono::seconds(3);
  Status s = RunTree(NewUploadConfigPhase(data_));
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_THAT(s.message(), ::testing::HasSubstr("error patching Node \"missing\""));
  EXPECT_GE(clock_.slept(), std::chrono::milliseconds(2500));
  EXPECT_LE(clock_.slept(), std::chrono::seconds(3));
}

}  // namespace
}  // namespace kkadm::phases
