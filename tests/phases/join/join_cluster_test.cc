// Discovery wired to the TLS bootstrap identity and the cluster's configuration: the credential
// appears only in the client made after verification; admin.conf short-cuts a control-plane join.
#include "app/phases/discovery/join_cluster.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "app/util/pubkey_pin.h"
#include "tests/phases/join/join_fixture.h"

namespace kkadm::phases {
namespace {

using kkadm::testing::Answer;
using ::testing::HasSubstr;

constexpr const char* kClusterYaml =
    "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nkubernetesVersion: v1.32.0\n"
    "clusterName: prod\ncontrolPlaneEndpoint: cp.example:6443\n";
constexpr const char* kKubeletYaml =
    "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: "
    "systemd\n";

nlohmann::json ConfigMap(const std::string& name, const std::string& key,
                         const std::string& value) {
  return {{"kind", "ConfigMap"}, {"metadata", {{"name", name}}}, {"data", {{key, value}}}};
}

class JoinClusterTest : public kkadm::testing::JoinPhasesTest {
 protected:
  JoinClusterTest() {
    data_.cfg.discovery.bootstrap_token->unsafe_skip_ca_verification = false;
    data_.cfg.discovery.bootstrap_token->ca_cert_hashes = {
        *util::PinOfPemCertificate(fixture_.ca_pem)};
    http_.handler = [this](const auto&) { return Answer(200, fixture_.ConfigMap()); };
    api_.Put("/api/v1/namespaces/kube-system/configmaps/kubeadm-config",
             ConfigMap("kubeadm-config", "ClusterConfiguration", kClusterYaml));
    api_.Put("/api/v1/namespaces/kube-system/configmaps/kubelet-config",
             ConfigMap("kubelet-config", "kubelet", kKubeletYaml));
  }

  Result<JoinCluster> Discover() {
    JoinClusterEnv env{
        {http_.Factory(), clock_, printer_},
        [this](const util::KubeClientConfig& c) -> std::unique_ptr<util::KubeClient> {
          made_.push_back(c);
          return std::make_unique<kkadm::testing::ForwardingKubeClient>(api_);
        },
        [this](const std::string& path) -> Result<std::string> {
          auto it = local_files_.find(path);
          if (it == local_files_.end()) return NotFound(path + ": no such file");
          return it->second;
        },
        fs_};
    return DiscoverJoinCluster(data_.cfg, {"10.0.0.1:6443"}, "/etc/kubernetes/admin.conf", env);
  }

  kkadm::testing::FakeHttpServer http_;
  kkadm::testing::FakeKubeClient api_;
  std::vector<util::KubeClientConfig> made_;
  std::map<std::string, std::string> local_files_;
};

TEST_F(JoinClusterTest, TokenDiscoveryThenTheConfigurationReadWithTheBootstrapToken) {
  auto cluster = Discover();
  ASSERT_TRUE(cluster.has_value()) << cluster.error().message();
  // Discovery's requests carried nothing; the first client with a credential comes after them.
  ASSERT_EQ(http_.seen().size(), 2u);
  for (const auto& seen : http_.seen()) EXPECT_EQ(seen.options.bearer_token, "");
  ASSERT_EQ(made_.size(), 1u);
  EXPECT_EQ(made_[0].token, fixture_.Token());
  EXPECT_EQ(made_[0].ca_pem, fixture_.ca_pem);
  EXPECT_EQ(made_[0].server, fixture_.server);
  EXPECT_EQ(cluster->ca_pem, fixture_.ca_pem);
  EXPECT_EQ(cluster->init_cfg.cluster.cluster_name, "prod");
  EXPECT_EQ(cluster->init_cfg.node_registration.name, "worker-1");
  EXPECT_EQ(cluster->init_cfg.component_configs.kubelet.value("cgroupDriver", ""), "systemd");
  // The bootstrap kubeconfig's cluster takes the cluster's name, as kubeadm does.
  ASSERT_NE(cluster->tls_bootstrap.CurrentCluster(), nullptr);
  EXPECT_EQ(cluster->tls_bootstrap.CurrentCluster()->name, "prod");
  EXPECT_EQ(cluster->tls_bootstrap.CurrentUser()->token, fixture_.Token());
}

TEST_F(JoinClusterTest, DiscoveryFailureIsAboutTheApiServersIdentityAndSendsNoToken) {
  data_.cfg.discovery.bootstrap_token->ca_cert_hashes = {"sha256:" + std::string(64, '0')};
  auto cluster = Discover();
  ASSERT_FALSE(cluster.has_value());
  EXPECT_THAT(
      cluster.error().message(),
      HasSubstr(
          "couldn't validate the identity of the API Server: cluster CA found in cluster-info "
          "ConfigMap is invalid: none of the public keys"));
  EXPECT_TRUE(made_.empty());
}

TEST_F(JoinClusterTest, ControlPlaneJoinWithAdminConfSkipsDiscovery) {
  MakeControlPlane();
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/admin.conf",
                            util::EncodeKubeconfig(util::NewKubeconfigWithClientCert(
                                "https://cp.example:6443", "prod", "kubernetes-admin",
                                fixture_.ca_pem, "KEY", "CERT")),
                            0600)
                  .ok());
  auto cluster = Discover();
  ASSERT_TRUE(cluster.has_value()) << cluster.error().message();
  EXPECT_TRUE(http_.seen().empty());
  ASSERT_EQ(made_.size(), 1u);
  EXPECT_EQ(made_[0].client_cert_pem, "CERT");
  EXPECT_EQ(cluster->init_cfg.local_api_endpoint.advertise_address, "10.0.0.2");
}

TEST_F(JoinClusterTest, FileDiscoveryUsesTheFilesCredentialsOrTheTlsBootstrapToken) {
  data_.cfg.discovery.bootstrap_token.reset();
  data_.cfg.discovery.file = config::FileDiscovery{"/root/discovery.conf"};
  data_.cfg.discovery.tls_bootstrap_token.clear();
  local_files_["/root/discovery.conf"] = util::EncodeKubeconfig(util::NewKubeconfigWithToken(
      fixture_.server, "kubernetes", "joiner", fixture_.ca_pem, "abcdef.ffffffffffffffff"));
  auto cluster = Discover();
  ASSERT_TRUE(cluster.has_value()) << cluster.error().message();
  ASSERT_EQ(http_.seen().size(), 1u);
  EXPECT_EQ(http_.seen()[0].options.ca_pem, fixture_.ca_pem);  // verified with the file's CA
  EXPECT_EQ(http_.seen()[0].options.bearer_token, "");
  EXPECT_EQ(made_[0].token, "abcdef.ffffffffffffffff");

  data_.cfg.discovery.tls_bootstrap_token = fixture_.Token();
  cluster = Discover();
  ASSERT_TRUE(cluster.has_value());
  EXPECT_EQ(made_.back().token, fixture_.Token());
  EXPECT_EQ(cluster->tls_bootstrap.CurrentUser()->name, "tls-bootstrap-token-user");
}

TEST_F(JoinClusterTest, FileDiscoveryWithoutCredentialsNeedsATlsBootstrapToken) {
  data_.cfg.discovery.bootstrap_token.reset();
  data_.cfg.discovery.file = config::FileDiscovery{"/root/discovery.conf"};
  data_.cfg.discovery.tls_bootstrap_token.clear();
  util::Kubeconfig anonymous;
  anonymous.clusters.push_back({"kubernetes", fixture_.server, fixture_.ca_pem, ""});
  local_files_["/root/discovery.conf"] = util::EncodeKubeconfig(anonymous);
  auto cluster = Discover();
  ASSERT_FALSE(cluster.has_value());
  EXPECT_THAT(cluster.error().message(),
              HasSubstr("could not find authentication credentials for the TLS bootstrap"));
  EXPECT_TRUE(made_.empty());
}

TEST(JoinInitConfigurationTest, TakesTheClusterAndThisNode) {
  config::JoinConfiguration join;
  join.node_registration.name = "cp-2";
  join.control_plane = config::JoinControlPlane{{"10.0.0.2", 7443}, ""};
  join.timeouts.tls_bootstrap = std::chrono::minutes(1);
  join.patches_directory = "/patches";
  discovery::ClusterState state;
  state.cluster.control_plane_endpoint = "cp:6443";
  state.kubelet = {{"kind", "KubeletConfiguration"}};
  config::InitConfiguration init = JoinInitConfiguration(join, state);
  EXPECT_EQ(init.cluster.control_plane_endpoint, "cp:6443");
  EXPECT_EQ(init.node_registration.name, "cp-2");
  EXPECT_EQ(init.local_api_endpoint.bind_port, 7443);
  EXPECT_EQ(init.timeouts.tls_bootstrap, std::chrono::minutes(1));
  EXPECT_EQ(init.patches_directory, "/patches");
  EXPECT_EQ(init.component_configs.kubelet.value("kind", ""), "KubeletConfiguration");
}

}  // namespace
}  // namespace kkadm::phases
