#include "app/config/images.h"

#include <gtest/gtest.h>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::config {
namespace {

ClusterConfiguration Defaults() {
  ClusterConfiguration cfg;
  cfg.kubernetes_version = "v1.32.0";
  cfg.etcd.local = LocalEtcd{};
  return cfg;
}

TEST(ImagesTest, DefaultListInKubeadmOrder) {
  EXPECT_EQ(ControlPlaneImages(Defaults()),
            (std::vector<std::string>{
                "registry.k8s.io/kube-apiserver:v1.32.0",
                "registry.k8s.io/kube-controller-manager:v1.32.0",
                "registry.k8s.io/kube-scheduler:v1.32.0", "registry.k8s.io/kube-proxy:v1.32.0",
                "registry.k8s.io/coredns/coredns:v1.11.3", "registry.k8s.io/pause:3.10",
                "registry.k8s.io/etcd:3.5.16-0"}));
}

TEST(ImagesTest, CustomRepositoryAndOverrides) {
  auto cfg = Defaults();
  cfg.image_repository = "mirror.example/k8s";
  cfg.kubernetes_version = "v1.31.2+build.1";
  EXPECT_EQ(KubernetesImage("kube-apiserver", cfg),
            "mirror.example/k8s/kube-apiserver:v1.31.2_build.1");
  // A custom repository has no extra coredns/ level.
  EXPECT_EQ(DNSImage(cfg), "mirror.example/k8s/coredns:v1.11.3");
  EXPECT_EQ(PauseImage(cfg), "mirror.example/k8s/pause:3.10");
  cfg.etcd.local->image_repository = "quay.io/coreos";
  cfg.etcd.local->image_tag = "v3.4.23";
  EXPECT_EQ(EtcdImage(cfg), "quay.io/coreos/etcd:v3.4.23");
  cfg.dns.image_repository = "registry.k8s.io";
  cfg.dns.image_tag = "v1.12.0";
  EXPECT_EQ(DNSImage(cfg), "registry.k8s.io/coredns/coredns:v1.12.0");
}

TEST(ImagesTest, EtcdVersionTableAndNearestEntry) {
  EXPECT_EQ(EtcdVersionFor("v1.32.0"), "3.5.16-0");
  EXPECT_EQ(EtcdVersionFor("v1.30.4"), "3.5.16-0");
  EXPECT_EQ(EtcdVersionFor("v1.29.0"), "3.5.16-0");  // below the table: its first entry
  EXPECT_EQ(EtcdVersionFor("v1.40.0"), "3.5.16-0");
  EXPECT_EQ(EtcdVersionFor("latest"), kDefaultEtcdVersion);
}

TEST(ImagesTest, DisabledAddonsAndExternalEtcdAreLeftOut) {
  auto cfg = Defaults();
  cfg.proxy.disabled = true;
  cfg.dns.disabled = true;
  cfg.etcd.local.reset();
  cfg.etcd.external = ExternalEtcd{
      .endpoints = {"https://10.0.0.1:2379"}, .ca_file = "", .cert_file = "", .key_file = ""};
  EXPECT_EQ(ControlPlaneImages(cfg),
            (std::vector<std::string>{"registry.k8s.io/kube-apiserver:v1.32.0",
                                      "registry.k8s.io/kube-controller-manager:v1.32.0",
                                      "registry.k8s.io/kube-scheduler:v1.32.0",
                                      "registry.k8s.io/pause:3.10"}));
}

// images.cc's minor parser before, regex and all.
std::optional<int> OracleMinorOf(const std::string& version) {
  static const std::regex kSemver(R"(v?(\d+)\.(\d+)\.(\d+)([-+].*)?)");
  std::smatch match;
  if (!std::regex_match(version, match, kSemver)) return std::nullopt;
  try {
    return std::stoi(match[2].str());
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

TEST(ImagesTest, KubernetesMinorVersionAgreesWithTheRegexParser) {
  const auto inputs = kkadm::testing::OracleInputs(
      {"v1.32.0", "1.32.0", "v1.32.0-rc.1", "v1.32.0+build", "v1.32.0-", "v1.32.0x", "vv1.32.0",
       "v1.32", "v1.99999999999.0", "v1.2147483647.0", "v1.2147483648.0", "v1.32.0-\n",
       "v1.32.0+\r", "v1.032.0", "V1.32.0", "v1.32.0\n"},
      "v19.-+x\n", 4);
  for (const std::string& version : inputs) {
    EXPECT_EQ(KubernetesMinorVersion(version), OracleMinorOf(version)) << version;
  }
}

}  // namespace
}  // namespace kkadm::config
