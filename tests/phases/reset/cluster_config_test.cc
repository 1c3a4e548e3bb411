// Reading the ClusterConfiguration back from the kubeadm-config ConfigMap.
#include "app/phases/reset/cluster_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fakes/memory_kube_client.h"

namespace kkadm::phases::reset {
namespace {

using ::testing::HasSubstr;

constexpr const char* kPath = "/api/v1/namespaces/kube-system/configmaps/kubeadm-config";

nlohmann::json KubeadmConfig(const std::string& cluster_configuration) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", "kubeadm-config"}, {"namespace", "kube-system"}}},
          {"data", {{"ClusterConfiguration", cluster_configuration}}}};
}

TEST(FetchClusterConfigurationTest, DecodesAndDefaults) {
  testing::MemoryKubeClient client;
  client.Put(kPath, KubeadmConfig("apiVersion: kubeadm.k8s.io/v1beta4\n"
                                  "kind: ClusterConfiguration\n"
                                  "certificatesDir: /srv/pki\n"
                                  "etcd:\n  local:\n    dataDir: /srv/etcd\n"));
  auto cluster = FetchClusterConfiguration(client);
  ASSERT_TRUE(cluster) << cluster.error().message();
  EXPECT_EQ(cluster->certificates_dir, "/srv/pki");
  ASSERT_TRUE(cluster->etcd.local);
  EXPECT_EQ(cluster->etcd.local->data_dir, "/srv/etcd");
  EXPECT_EQ(cluster->networking.service_subnet, "10.96.0.0/12");  // defaulted
}

TEST(FetchClusterConfigurationTest, V1beta3AndExternalEtcd) {
  testing::MemoryKubeClient client;
  client.Put(kPath, KubeadmConfig("apiVersion: kubeadm.k8s.io/v1beta3\n"
                                  "kind: ClusterConfiguration\n"
                                  "etcd:\n  external:\n    endpoints: [https://10.0.0.9:2379]\n"));
  auto cluster = FetchClusterConfiguration(client);
  ASSERT_TRUE(cluster) << cluster.error().message();
  EXPECT_FALSE(cluster->etcd.local);
  ASSERT_TRUE(cluster->etcd.external);
  EXPECT_EQ(cluster->certificates_dir, "/etc/kubernetes/pki");
}

TEST(FetchClusterConfigurationTest, ErrorsComeBack) {
  testing::MemoryKubeClient client;
  auto missing = FetchClusterConfiguration(client);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.error().message(), HasSubstr("failed to get config map"));

  client.Put(kPath, {{"metadata", {{"name", "kubeadm-config"}}}, {"data", {{"other", "x"}}}});
  auto no_key = FetchClusterConfiguration(client);
  ASSERT_FALSE(no_key);
  EXPECT_THAT(no_key.error().message(), HasSubstr("ClusterConfiguration"));

  client.Put(kPath,
             KubeadmConfig(
                 "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\nnetworking: [1"));
  EXPECT_FALSE(FetchClusterConfiguration(client));

  client.inject = [](const std::string&, const std::string&) {
    return Unavailable("connection refused");
  };
  auto down = FetchClusterConfiguration(client);
  ASSERT_FALSE(down);
  EXPECT_EQ(down.error().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace kkadm::phases::reset
