#include "app/phases/certs/renewal.h"

#include <gtest/gtest.h>

#include "app/phases/certs/certs.h"
#include "app/phases/certs/expiration.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/util/kubeconfig.h"
#include "app/util/pki/pki_files.h"
#include "tests/phases/certs/test_node.h"

namespace kkadm::phases::certs {
namespace {

using util::pki::Certificate;

const char kRenewalPki[] = "/etc/kubernetes/pki";

struct RenewalNode : testing::TestNode {
  RenewalNode() {
    CertsEnv certs{data.cfg, fs, printer, clock};
    EXPECT_TRUE(CreatePKIAssets(certs).ok());
    kubeconfig::KubeconfigEnv kc{data.cfg, fs, printer, clock, "/etc/kubernetes"};
    EXPECT_TRUE(kubeconfig::CreateKubeconfigFile(kubeconfig::kAdminConf, kc).ok());
    TakeOutput();
  }
  RenewalEnv Env() { return RenewalEnv{.cluster = data.cfg.cluster, .fs = fs, .clock = clock}; }
  Certificate Cert(const std::string& base) {
    return *util::pki::LoadCert(fs, std::string(kRenewalPki) + "/" + base + ".crt");
  }
  util::pki::PrivateKey Key(const std::string& base) {
    return *util::pki::LoadKey(fs, std::string(kRenewalPki) + "/" + base + ".key");
  }
};

std::vector<std::string> Names(const std::vector<RenewalItem>& items) {
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item.name);
  return names;
}

TEST(RenewalTest, ItemsAreKubeadmsElevenNamesSorted) {
  EXPECT_EQ(Names(RenewalItems(false)),
            (std::vector<std::string>{"admin.conf", "apiserver", "apiserver-etcd-client",
                                      "apiserver-kubelet-client", "controller-manager.conf",
                                      "etcd-healthcheck-client", "etcd-peer", "etcd-server",
                                      "front-proxy-client", "scheduler.conf", "super-admin.conf"}));
  EXPECT_EQ(Names(RenewalItems(true)),
            (std::vector<std::string>{"admin.conf", "apiserver", "apiserver-kubelet-client",
                                      "controller-manager.conf", "front-proxy-client",
                                      "scheduler.conf", "super-admin.conf"}));
  std::vector<std::string> cas;
  for (const auto& ca : RenewalAuthorities(false)) cas.push_back(ca.name);
  EXPECT_EQ(cas, (std::vector<std::string>{"ca", "etcd-ca", "front-proxy-ca"}));
  EXPECT_EQ(FindRenewalItem("etcd-server")->ca_base, "etcd/ca");
  EXPECT_FALSE(FindRenewalItem("ca").has_value());
}

TEST(RenewalTest, LeafKeepsSubjectSansAndUsagesWithNewKeySerialAndValidity) {
  RenewalNode node;
  const Certificate old = node.Cert("etcd/server");
  const std::string ca_before = node.Read("/etc/kubernetes/pki/etcd/ca.crt");
  node.clock.Set(node.clock.Now() + std::chrono::hours(24 * 100));
  node.data.cfg.cluster.certificate_validity_period = std::chrono::hours(48);
  auto outcome = RenewItem(*FindRenewalItem("etcd-server"), node.Env());
  ASSERT_TRUE(outcome.has_value()) << outcome.error().message();
  EXPECT_EQ(*outcome, RenewOutcome::kRenewed);
  const Certificate renewed = node.Cert("etcd/server");
  EXPECT_EQ(renewed.CommonName(), old.CommonName());
  EXPECT_EQ(renewed.DnsNames(), old.DnsNames());
  EXPECT_EQ(renewed.IpAddresses(), old.IpAddresses());
  EXPECT_EQ(renewed.ExtKeyUsages(), old.ExtKeyUsages());
  EXPECT_NE(renewed.SerialHex(), old.SerialHex());
  EXPECT_NE(renewed.PublicKeyDer(), old.PublicKeyDer());
  EXPECT_TRUE(renewed.MatchesKey(node.Key("etcd/server")));
  EXPECT_TRUE(renewed.VerifySignedBy(node.Cert("etcd/ca")).ok());
  EXPECT_EQ(renewed.NotAfter(), node.clock.Now() + std::chrono::hours(48));
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/etcd/ca.crt"), ca_before);
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/pki/etcd/.server.kkadm-renewal"));
}

TEST(RenewalTest, KubeconfigGetsANewClientCertificateAndKeepsTheRest) {
  RenewalNode node;
  const std::string path = "/etc/kubernetes/admin.conf";
  auto before = *util::DecodeKubeconfig(node.Read(path));
  auto outcome = RenewItem(*FindRenewalItem("admin.conf"), node.Env());
  ASSERT_TRUE(outcome.has_value()) << outcome.error().message();
  auto after = *util::DecodeKubeconfig(node.Read(path));
  EXPECT_EQ(after.current_context, before.current_context);
  EXPECT_EQ(after.CurrentCluster()->server, before.CurrentCluster()->server);
  EXPECT_EQ(after.CurrentUser()->name, before.CurrentUser()->name);
  EXPECT_NE(after.CurrentUser()->client_certificate_data,
            before.CurrentUser()->client_certificate_data);
  auto cert = *Certificate::ParsePem(after.CurrentUser()->client_certificate_data);
  auto key = *util::pki::PrivateKey::ParsePem(after.CurrentUser()->client_key_data);
  EXPECT_TRUE(cert.MatchesKey(key));
  EXPECT_EQ(cert.CommonName(), "kubernetes-admin");
  EXPECT_EQ(cert.Organizations(), std::vector<std::string>{"kubeadm:cluster-admins"});
  EXPECT_EQ(node.fs.Stat(path)->mode, 0600u);
}

TEST(RenewalTest, MissingAndExternalCaWriteNothing) {
  RenewalNode node;
  EXPECT_EQ(*RenewItem(*FindRenewalItem("scheduler.conf"), node.Env()), RenewOutcome::kMissing);
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/front-proxy-ca.key").ok());
  const std::string before = node.Read("/etc/kubernetes/pki/front-proxy-client.crt");
  EXPECT_EQ(*RenewItem(*FindRenewalItem("front-proxy-client"), node.Env()),
            RenewOutcome::kExternalCA);
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/front-proxy-client.crt"), before);
}

TEST(RenewalTest, KubeconfigWithoutEmbeddedClientCertificateIsAnError) {
  RenewalNode node;
  auto config = *util::DecodeKubeconfig(node.Read("/etc/kubernetes/admin.conf"));
  config.users[0].client_certificate_data.clear();
  config.users[0].client_certificate = "/etc/kubernetes/pki/admin.crt";
  ASSERT_TRUE(
      node.fs.WriteFile("/etc/kubernetes/admin.conf", util::EncodeKubeconfig(config), 0600).ok());
  auto outcome = RenewItem(*FindRenewalItem("admin.conf"), node.Env());
  ASSERT_FALSE(outcome.has_value());
  EXPECT_EQ(outcome.error().message(),
            "kubeConfig file /etc/kubernetes/admin.conf does not have an embedded client "
            "certificate");
}

// A run killed after it wrote the pending pair and the new key, before the new certificate.
TEST(RenewalTest, InterruptedRenewalIsCompletedWithTheMatchingPair) {
  RenewalNode node;
  const auto item = *FindRenewalItem("apiserver");
  const std::string pending = PendingRenewalPath(item, node.Env());
  EXPECT_EQ(pending, "/etc/kubernetes/pki/.apiserver.kkadm-renewal");
  ASSERT_TRUE(RenewItem(item, node.Env()).has_value());
  const std::string new_cert = node.Read("/etc/kubernetes/pki/apiserver.crt");
  const std::string new_key = node.Read("/etc/kubernetes/pki/apiserver.key");
  ASSERT_TRUE(node.fs.WriteFile(pending, new_key + new_cert, 0600).ok());
  ASSERT_TRUE(node.fs.WriteFile("/etc/kubernetes/pki/apiserver.crt", "stale", 0644).ok());
  ASSERT_TRUE(FinishInterruptedRenewals(node.Env(), node.printer).ok());
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/apiserver.crt"), new_cert);
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/apiserver.key"), new_key);
  EXPECT_FALSE(node.fs.Exists(pending));
  EXPECT_EQ(node.TakeOutput(),
            "[renew] Completed the interrupted renewal of the certificate for serving the "
            "Kubernetes API\n");
}

}  // namespace
}  // namespace kkadm::phases::certs

namespace kkadm::phases::certs {
namespace {

TEST(KubeletRotationWarningTest, WarnsUntilKubeletConfPointsAtTheRotatedCertificate) {
  RenewalNode node;
  EXPECT_FALSE(KubeletRotationWarning(node.Env(), node.clock.Now()).has_value());
  kubeconfig::KubeconfigEnv kc{node.data.cfg, node.fs, node.printer, node.clock, "/etc/kubernetes"};
  ASSERT_TRUE(kubeconfig::CreateKubeconfigFile(kubeconfig::kKubeletConf, kc).ok());
  auto warning = KubeletRotationWarning(node.Env(), node.clock.Now());
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("WARNING: /etc/kubernetes/kubelet.conf does not point at "
                          "/var/lib/kubelet/pki/kubelet-client-current.pem"),
            std::string::npos);
  EXPECT_NE(warning->find("Its embedded client certificate expires"), std::string::npos);
  auto config = *util::DecodeKubeconfig(node.Read("/etc/kubernetes/kubelet.conf"));
  config.users[0] = {.name = config.users[0].name,
                     .client_certificate = "/var/lib/kubelet/pki/kubelet-client-current.pem",
                     .client_key = "/var/lib/kubelet/pki/kubelet-client-current.pem"};
  ASSERT_TRUE(
      node.fs.WriteFile("/etc/kubernetes/kubelet.conf", util::EncodeKubeconfig(config), 0600).ok());
  EXPECT_FALSE(KubeletRotationWarning(node.Env(), node.clock.Now()).has_value());
}

}  // namespace
}  // namespace kkadm::phases::certs
