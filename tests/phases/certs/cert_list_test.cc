#include "app/phases/certs/cert_list.h"

#include <gtest/gtest.h>

namespace kkadm::phases::certs {
namespace {

using util::pki::ExtKeyUsage;

config::InitConfiguration SampleConfig() {
  config::InitConfiguration cfg;
  cfg.node_registration.name = "node-1";
  cfg.local_api_endpoint.advertise_address = "192.0.2.10";
  cfg.cluster.networking.service_subnet = "10.96.0.0/12,fd00:10:96::/108";
  cfg.cluster.networking.dns_domain = "corp.local";
  cfg.cluster.control_plane_endpoint = "cp.example.com:6443";
  cfg.cluster.api_server.cert_sans = {"10.0.0.5", "api.example.com", "Bad_SAN",
                                      "*.apps.example.com"};
  cfg.cluster.etcd.local.emplace();
  cfg.cluster.etcd.local->server_cert_sans = {"etcd.example.com", "10.1.1.1"};
  cfg.cluster.etcd.local->peer_cert_sans = {"peer.example.com"};
  return cfg;
}

TEST(CertListTest, TableMatchesKubeadm) {
  std::vector<std::string> names, bases, cas;
  for (const auto& spec : CertList()) {
    names.push_back(spec.name);
    bases.push_back(spec.base_name);
    cas.push_back(spec.ca_name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"ca", "apiserver", "apiserver-kubelet-client",
                                             "front-proxy-ca", "front-proxy-client", "etcd-ca",
                                             "etcd-server", "etcd-peer", "etcd-healthcheck-client",
                                             "apiserver-etcd-client"}));
  EXPECT_EQ(bases, (std::vector<std::string>{"ca", "apiserver", "apiserver-kubelet-client",
                                             "front-proxy-ca", "front-proxy-client", "etcd/ca",
                                             "etcd/server", "etcd/peer", "etcd/healthcheck-client",
                                             "apiserver-etcd-client"}));
  EXPECT_EQ(cas, (std::vector<std::string>{"", "ca", "ca", "", "front-proxy-ca", "", "etcd-ca",
                                           "etcd-ca", "etcd-ca", "etcd-ca"}));
  EXPECT_EQ(FindCertSpec("etcd-peer")->base_name, "etcd/peer");
  EXPECT_EQ(FindCertSpec("nope"), nullptr);
}

TEST(CertListTest, SubjectsAndUsages) {
  auto cfg = SampleConfig();
  struct Want {
    std::string name, cn;
    std::vector<std::string> orgs;
    std::vector<ExtKeyUsage> usages;
    bool ca;
  };
  std::vector<Want> wants = {
      {"ca", "kubernetes", {}, {}, true},
      {"apiserver", "kube-apiserver", {}, {ExtKeyUsage::kServerAuth}, false},
      {"apiserver-kubelet-client",
       "kube-apiserver-kubelet-client",
       {"kubeadm:cluster-admins"},
       {ExtKeyUsage::kClientAuth},
       false},
      {"front-proxy-ca", "front-proxy-ca", {}, {}, true},
      {"front-proxy-client", "front-proxy-client", {}, {ExtKeyUsage::kClientAuth}, false},
      {"etcd-ca", "etcd-ca", {}, {}, true},
      {"etcd-server", "node-1", {}, {ExtKeyUsage::kServerAuth, ExtKeyUsage::kClientAuth}, false},
      {"etcd-peer", "node-1", {}, {ExtKeyUsage::kServerAuth, ExtKeyUsage::kClientAuth}, false},
      {"etcd-healthcheck-client",
       "kube-etcd-healthcheck-client",
       {},
       {ExtKeyUsage::kClientAuth},
       false},
      {"apiserver-etcd-client",
       "kube-apiserver-etcd-client",
       {},
       {ExtKeyUsage::kClientAuth},
       false},
  };
  for (const auto& w : wants) {
    auto c = GetCertConfig(*FindCertSpec(w.name), cfg);
    ASSERT_TRUE(c.has_value()) << w.name << ": " << c.error().message();
    EXPECT_EQ(c->common_name, w.cn) << w.name;
    EXPECT_EQ(c->organizations, w.orgs) << w.name;
    EXPECT_EQ(c->usages, w.usages) << w.name;
    EXPECT_EQ(c->is_ca, w.ca) << w.name;
  }
}

TEST(CertListTest, APIServerSans) {
  auto names = GetAPIServerAltNames(SampleConfig());
  ASSERT_TRUE(names.has_value()) << names.error().message();
  EXPECT_EQ(names->dns_names,
            (std::vector<std::string>{"node-1", "kubernetes", "kubernetes.default",
                                      "kubernetes.default.svc", "kubernetes.default.svc.corp.local",
                                      "cp.example.com", "api.example.com", "*.apps.example.com"}));
  EXPECT_EQ(names->ips, (std::vector<std::string>{"10.96.0.1", "192.0.2.10", "10.0.0.5"}));
}

TEST(CertListTest, APIServerSansWithIpEndpointAndIpv6Service) {
  auto cfg = SampleConfig();
  cfg.cluster.control_plane_endpoint = "[fd00::10]:443";
  cfg.cluster.networking.service_subnet = "fd00:10:96::/108";
  cfg.cluster.api_server.cert_sans.clear();
  auto names = GetAPIServerAltNames(cfg);
  ASSERT_TRUE(names.has_value());
  EXPECT_EQ(names->ips, (std::vector<std::string>{"fd00:10:96::1", "192.0.2.10", "fd00::10"}));
}

TEST(CertListTest, EtcdSans) {
  auto server = GetEtcdAltNames(SampleConfig(), false);
  ASSERT_TRUE(server.has_value());
  EXPECT_EQ(server->dns_names,
            (std::vector<std::string>{"node-1", "localhost", "etcd.example.com"}));
  EXPECT_EQ(server->ips, (std::vector<std::string>{"192.0.2.10", "127.0.0.1", "::1", "10.1.1.1"}));
  auto peer = GetEtcdAltNames(SampleConfig(), true);
  ASSERT_TRUE(peer.has_value());
  EXPECT_EQ(peer->dns_names, (std::vector<std::string>{"node-1", "localhost", "peer.example.com"}));
  EXPECT_EQ(peer->ips, (std::vector<std::string>{"192.0.2.10", "127.0.0.1", "::1"}));
}

TEST(CertListTest, BadConfigIsAnError) {
  auto cfg = SampleConfig();
  cfg.local_api_endpoint.advertise_address = "not-an-ip";
  auto r = GetCertConfig(*FindCertSpec("apiserver"), cfg);
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message().find("error parsing LocalAPIEndpoint AdvertiseAddress not-an-ip"),
            std::string::npos);
  EXPECT_FALSE(GetCertConfig(*FindCertSpec("etcd-server"), cfg).has_value());
  EXPECT_TRUE(GetCertConfig(*FindCertSpec("front-proxy-client"), cfg).has_value());
  cfg = SampleConfig();
  cfg.cluster.networking.service_subnet = "10.96.0.0/32";
  EXPECT_FALSE(GetAPIServerAltNames(cfg).has_value());
  cfg = SampleConfig();
  cfg.cluster.control_plane_endpoint = "bad_host:6443";
  EXPECT_FALSE(GetAPIServerAltNames(cfg).has_value());
}

TEST(CertListTest, KeyTypes) {
  EXPECT_EQ(KeyTypeFor(config::EncryptionAlgorithm::kRsa2048), util::pki::KeyType::kRsa2048);
  EXPECT_EQ(KeyTypeFor(config::EncryptionAlgorithm::kRsa4096), util::pki::KeyType::kRsa4096);
  EXPECT_EQ(KeyTypeFor(config::EncryptionAlgorithm::kEcdsaP256), util::pki::KeyType::kEcdsaP256);
  EXPECT_EQ(KeyTypeFor(config::EncryptionAlgorithm::kEcdsaP384), util::pki::KeyType::kEcdsaP384);
}

}  // namespace
}  // namespace kkadm::phases::certs
