// The TLS bootstrap kubeconfig and reading the cluster's configuration with it.
#include "app/phases/discovery/tls_bootstrap.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/fakes/fake_kube_client.h"

namespace kkadm::phases::discovery {
namespace {

using ::testing::HasSubstr;

constexpr const char* kClusterYaml =
    "apiVersion: kubeadm.k8s.io/v1beta4\n"
    "kind: ClusterConfiguration\n"
    "kubernetesVersion: v1.32.0\n"
    "controlPlaneEndpoint: cp.example:6443\n"
    "clusterName: prod\n"
    "networking:\n  serviceSubnet: 10.96.0.0/12\n  podSubnet: 10.244.0.0/16\n";

constexpr const char* kKubeletYaml =
    "apiVersion: kubelet.config.k8s.io/v1beta1\n"
    "kind: KubeletConfiguration\n"
    "cgroupDriver: systemd\n"
    "healthzPort: 10248\n";

nlohmann::json ConfigMap(const std::string& name, const std::string& key,
                         const std::string& value) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", "kube-system"}}},
          {"data", {{key, value}}}};
}

TEST(TlsBootstrapKubeconfigTest, TokenUserOnTheVerifiedCluster) {
  VerifiedCluster cluster{"https://10.0.0.1:6443", "CA-PEM", "10.0.0.1:6443", true};
  util::Kubeconfig k = TlsBootstrapKubeconfig(cluster, "abcdef.0123456789abcdef");
  ASSERT_NE(k.CurrentCluster(), nullptr);
  ASSERT_NE(k.CurrentUser(), nullptr);
  EXPECT_EQ(k.CurrentCluster()->name, "kubernetes");
  EXPECT_EQ(k.CurrentCluster()->server, "https://10.0.0.1:6443");
  EXPECT_EQ(k.CurrentCluster()->certificate_authority_data, "CA-PEM");
  EXPECT_EQ(k.CurrentUser()->name, "tls-bootstrap-token-user");
  EXPECT_EQ(k.CurrentUser()->token, "abcdef.0123456789abcdef");
  auto config = ClientConfigOf(k);
  ASSERT_TRUE(config.has_value());
  EXPECT_EQ(config->token, "abcdef.0123456789abcdef");
  EXPECT_EQ(config->ca_pem, "CA-PEM");
}

TEST(ClientConfigOfTest, RefusesACredentialWithoutCa) {
  util::Kubeconfig k =
      util::NewKubeconfigWithToken("https://10.0.0.1:6443", "kubernetes", "u", "", "tok");
  auto config = ClientConfigOf(k);
  ASSERT_FALSE(config.has_value());
  EXPECT_THAT(config.error().message(), HasSubstr("has no CA"));
}

TEST(FetchClusterStateTest, ReadsBothConfigMaps) {
  kkadm::testing::FakeKubeClient client;
  client.Put("/api/v1/namespaces/kube-system/configmaps/kubeadm-config",
             ConfigMap("kubeadm-config", "ClusterConfiguration", kClusterYaml));
  client.Put("/api/v1/namespaces/kube-system/configmaps/kubelet-config",
             ConfigMap("kubelet-config", "kubelet", kKubeletYaml));
  std::ostringstream out;
  util::Printer printer(out);
  auto state = FetchClusterState(client, printer);
  ASSERT_TRUE(state.has_value()) << state.error().message();
  EXPECT_EQ(state->cluster.control_plane_endpoint, "cp.example:6443");
  EXPECT_EQ(state->cluster.cluster_name, "prod");
  EXPECT_EQ(state->cluster.networking.pod_subnet, "10.244.0.0/16");
  ASSERT_TRUE(state->cluster.etcd.local.has_value());  // defaulted
  EXPECT_EQ(state->kubelet.value("cgroupDriver", ""), "systemd");
  EXPECT_EQ(state->kubelet.value("kind", ""), "KubeletConfiguration");
  EXPECT_EQ(out.str(),
            "[preflight] Reading configuration from the cluster...\n"
            "[preflight] FYI: You can look at this config file with 'kubectl -n kube-system get cm "
            "kubeadm-config -o yaml'\n");
}

TEST(FetchClusterStateTest, MissingConfigMapIsNamed) {
  kkadm::testing::FakeKubeClient client;
  std::ostringstream out;
  util::Printer printer(out);
  auto state = FetchClusterState(client, printer);
  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(
      state.error().message(),
      "unable to fetch the kubeadm-config ConfigMap: configmaps \"kubeadm-config\" not found");
  client.Put("/api/v1/namespaces/kube-system/configmaps/kubeadm-config",
             ConfigMap("kubeadm-config", "ClusterConfiguration", "kind: [broken"));
  state = FetchClusterState(client, printer);
  ASSERT_FALSE(state.has_value());
  EXPECT_THAT(state.error().message(), HasSubstr("the kubeadm-config ConfigMap"));
}

}  // namespace
}  // namespace kkadm::phases::discovery
