// Tests for the cluster facts of `kkadm token create`: the ClusterConfiguration from
// kubeadm-config, the control-plane nodes' CRI socket, and the checks of a joining token.
#include "app/phases/bootstraptoken/join_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/bootstraptoken/token.h"
#include "app/phases/markcontrolplane/mark_control_plane.h"
#include "app/phases/uploadconfig/upload_config.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

const char kKubeadmConfig[] = "/api/v1/namespaces/kube-system/configmaps/kubeadm-config";

class JoinFactsTest : public testing::ClusterPhasesTest {
 protected:
  void PutConfigMap(const json& data) {
    client_.Put(kKubeadmConfig, {{"apiVersion", "v1"},
                                 {"kind", "ConfigMap"},
                                 {"metadata", {{"name", "kubeadm-config"}}},
                                 {"data", data}});
  }
  void PutNode(const std::string& name, bool control_plane, const std::string& cri_socket) {
    json node = {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", name}}}};
    if (control_plane) node["metadata"]["labels"][kControlPlaneLabel] = "";
    if (!cri_socket.empty()) node["metadata"]["annotations"][kCriSocketAnnotation] = cri_socket;
    client_.Put("/api/v1/nodes/" + name, node);
  }
};

TEST_F(JoinFactsTest, FetchesTheDefaultedClusterConfiguration) {
  PutConfigMap({{"ClusterConfiguration",
                 "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
                 "controlPlaneEndpoint: lb.example.com:443\ncertificatesDir: /srv/pki\n"}});
  auto cluster = FetchClusterConfiguration(client_);
  ASSERT_TRUE(cluster.has_value()) << cluster.status().message();
  EXPECT_EQ(cluster->control_plane_endpoint, "lb.example.com:443");
  EXPECT_EQ(cluster->certificates_dir, "/srv/pki");
  EXPECT_EQ(cluster->cluster_name, "kubernetes");
  EXPECT_TRUE(client_.Writes().empty());
}

// v1beta3 with external etcd, as an older kubeadm uploads it, decodes and is defaulted too.
TEST_F(JoinFactsTest, FetchesAV1beta3ClusterConfigurationWithExternalEtcd) {
  PutConfigMap({{"ClusterConfiguration",
                 "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n"
                 "etcd:\n  external:\n    endpoints: [https://10.0.0.9:2379]\n"}});
  auto cluster = FetchClusterConfiguration(client_);
  ASSERT_TRUE(cluster.has_value()) << cluster.status().message();
  EXPECT_FALSE(cluster->etcd.local);
  ASSERT_TRUE(cluster->etcd.external);
  EXPECT_EQ(cluster->certificates_dir, "/etc/kubernetes/pki");
  EXPECT_EQ(cluster->networking.service_subnet, "10.96.0.0/12");
}

TEST_F(JoinFactsTest, FetchReportsWhatIsMissingOrMalformed) {
  auto missing = FetchClusterConfiguration(client_);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  PutConfigMap({{"other", "x"}});
  EXPECT_EQ(FetchClusterConfiguration(client_).status().code(), StatusCode::kNotFound);
  PutConfigMap({{"ClusterConfiguration",
                 "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
                 "networking: [x\n"}});
  auto malformed = FetchClusterConfiguration(client_);
  ASSERT_FALSE(malformed.has_value());
  EXPECT_EQ(malformed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(malformed.status().message(), HasSubstr("ConfigMap kube-system/kubeadm-config"));
  PutConfigMap(
      {{"ClusterConfiguration", "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n"}});
  EXPECT_EQ(FetchClusterConfiguration(client_).status().code(), StatusCode::kInvalidArgument);
  // The API server's error comes back as it is (reset goes on without the cluster's config).
  client_.fail = [](const testing::FakeKubeClient::Call&) {
    return Unavailable("connection refused");
  };
  EXPECT_EQ(FetchClusterConfiguration(client_).status().code(), StatusCode::kUnavailable);
}

TEST_F(JoinFactsTest, CriSocketOfTheControlPlaneNodes) {
  EXPECT_EQ(ClusterCriSocket(client_), "unix:///var/run/containerd/containerd.sock");
  PutNode("worker-1", false, "unix:///var/run/cri-dockerd.sock");
  PutNode("cp-1", true, "unix:///run/crio/crio.sock");
  PutNode("cp-2", true, "unix:///run/crio/crio.sock");
  EXPECT_EQ(ClusterCriSocket(client_), "unix:///run/crio/crio.sock");
  PutNode("cp-3", true, "unix:///var/run/containerd/containerd.sock");
  EXPECT_EQ(ClusterCriSocket(client_),
            "unix:///var/run/containerd/containerd.sock");  // they disagree
  client_.fail = [](const testing::FakeKubeClient::Call&) { return PermissionDenied("forbidden"); };
  EXPECT_EQ(ClusterCriSocket(client_), "unix:///var/run/containerd/containerd.sock");
}

TEST_F(JoinFactsTest, ControlPlaneJoinNeedsEndpointAndCaKey) {
  config::ClusterConfiguration cluster;
  Status no_endpoint = CheckControlPlaneJoin(fs_, cluster);
  EXPECT_EQ(no_endpoint.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(no_endpoint.message(), HasSubstr("stable controlPlaneEndpoint"));
  cluster.control_plane_endpoint = "lb.example.com";
  EXPECT_THAT(CheckControlPlaneJoin(fs_, cluster).message(),
              HasSubstr("/etc/kubernetes/pki/ca.crt is missing"));
  MakeCa();
  EXPECT_TRUE(CheckControlPlaneJoin(fs_, cluster).ok());
  ASSERT_TRUE(fs_.Remove("/etc/kubernetes/pki/ca.key").ok());
  EXPECT_THAT(CheckControlPlaneJoin(fs_, cluster).message(),
              HasSubstr("/etc/kubernetes/pki/ca.key is missing"));
}

TEST_F(JoinFactsTest, JoiningTokensNeedKubeadmsUsagesAndGroup) {
  config::BootstrapToken token = *ParseBootstrapToken("abcdef.0123456789abcdef");
  EXPECT_TRUE(CheckJoinUsagesAndGroups(token).ok());
  token.usages = {"authentication"};
  EXPECT_THAT(CheckJoinUsagesAndGroups(token).message(), HasSubstr("the usage \"signing\""));
  token.usages = {"signing"};
  EXPECT_THAT(CheckJoinUsagesAndGroups(token).message(), HasSubstr("the usage \"authentication\""));
  token.usages = {"authentication", "signing"};
  token.groups = {"system:bootstrappers:other"};
  Status no_group = CheckJoinUsagesAndGroups(token);
  EXPECT_EQ(no_group.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(no_group.message(), HasSubstr("system:bootstrappers:kubeadm:default-node-token"));
}

}  // namespace
}  // namespace kkadm::phases
