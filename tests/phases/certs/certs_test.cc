#include "app/phases/certs/certs.h"

#include <gtest/gtest.h>

#include "app/util/pki/pki_files.h"
#include "app/util/pki/sign.h"
#include "tests/phases/certs/test_node.h"

namespace kkadm::phases::certs {
namespace {

using util::pki::Certificate;
using util::pki::LoadCert;

const char kPki[] = "/etc/kubernetes/pki";

const std::vector<std::string> kAllFiles = {"ca.crt",
                                            "ca.key",
                                            "apiserver.crt",
                                            "apiserver.key",
                                            "apiserver-kubelet-client.crt",
                                            "apiserver-kubelet-client.key",
                                            "front-proxy-ca.crt",
                                            "front-proxy-ca.key",
                                            "front-proxy-client.crt",
                                            "front-proxy-client.key",
                                            "etcd/ca.crt",
                                            "etcd/ca.key",
                                            "etcd/server.crt",
                                            "etcd/server.key",
                                            "etcd/peer.crt",
                                            "etcd/peer.key",
                                            "etcd/healthcheck-client.crt",
                                            "etcd/healthcheck-client.key",
                                            "apiserver-etcd-client.crt",
                                            "apiserver-etcd-client.key",
                                            "sa.key",
                                            "sa.pub"};

CertsEnv Env(testing::TestNode& node, util::pki::KeyPool* keys = nullptr) {
  return CertsEnv{node.data.cfg, node.fs, node.printer, node.clock, node.data.external_ca, keys};
}

std::map<std::string, std::string> Snapshot(testing::TestNode& node) {
  std::map<std::string, std::string> files;
  for (const auto& f : kAllFiles) files[f] = node.Read(std::string(kPki) + "/" + f);
  return files;
}

Certificate Cert(testing::TestNode& node, const std::string& base) {
  return *LoadCert(node.fs, std::string(kPki) + "/" + base + ".crt");
}

TEST(CertsTest, CreatesWholePkiWithKubeadmOutput) {
  testing::TestNode node;
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  EXPECT_EQ(node.TakeOutput(),
            "[certs] Generating \"ca\" certificate and key\n"
            "[certs] Generating \"apiserver\" certificate and key\n"
            "[certs] apiserver serving cert is signed for DNS names [kubernetes kubernetes.default "
            "kubernetes.default.svc kubernetes.default.svc.cluster.local node-1] and IPs "
            "[10.96.0.1 192.0.2.10]\n"
            "[certs] Generating \"apiserver-kubelet-client\" certificate and key\n"
            "[certs] Generating \"front-proxy-ca\" certificate and key\n"
            "[certs] Generating \"front-proxy-client\" certificate and key\n"
            "[certs] Generating \"etcd/ca\" certificate and key\n"
            "[certs] Generating \"etcd/server\" certificate and key\n"
            "[certs] etcd/server serving cert is signed for DNS names [localhost node-1] and IPs "
            "[192.0.2.10 127.0.0.1 ::1]\n"
            "[certs] Generating \"etcd/peer\" certificate and key\n"
            "[certs] etcd/peer serving cert is signed for DNS names [localhost node-1] and IPs "
            "[192.0.2.10 127.0.0.1 ::1]\n"
            "[certs] Generating \"etcd/healthcheck-client\" certificate and key\n"
            "[certs] Generating \"apiserver-etcd-client\" certificate and key\n"
            "[certs] Generating \"sa\" key and public key\n");
  for (const auto& f : kAllFiles) {
    auto info = node.fs.Stat(std::string(kPki) + "/" + f);
    ASSERT_TRUE(info.has_value()) << f;
    bool cert = f.size() > 4 && f.substr(f.size() - 4) == ".crt";
    EXPECT_EQ(info->mode, cert ? 0644u : 0600u) << f;
  }
  EXPECT_EQ(node.fs.Stat("/etc/kubernetes/pki/etcd")->mode, 0755u);
  for (const auto& spec : CertList()) {
    if (spec.IsCa()) continue;
    const CertSpec* ca = FindCertSpec(spec.ca_name);
    EXPECT_TRUE(Cert(node, spec.base_name)
                    .VerifyChain({}, Cert(node, ca->base_name), node.clock.Now())
                    .ok())
        << spec.name;
  }
}

TEST(CertsTest, ValidityFollowsClockAndConfig) {
  testing::TestNode node;
  node.data.cfg.cluster.certificate_validity_period = std::chrono::hours(48);
  node.data.cfg.cluster.ca_certificate_validity_period = std::chrono::hours(240);
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  auto start = node.clock.Now();
  EXPECT_EQ(Cert(node, "ca").NotBefore(), start - std::chrono::minutes(5));
  EXPECT_EQ(Cert(node, "ca").NotAfter(), start + std::chrono::hours(240));
  EXPECT_EQ(Cert(node, "apiserver").NotBefore(), start - std::chrono::minutes(5));
  EXPECT_EQ(Cert(node, "apiserver").NotAfter(), start + std::chrono::hours(48));
  EXPECT_EQ(Cert(node, "etcd/peer").NotAfter(), start + std::chrono::hours(48));
}

TEST(CertsTest, SecondRunReusesEverythingByteForByte) {
  testing::TestNode node;
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  auto before = Snapshot(node);
  node.TakeOutput();
  util::pki::KeyPool pool;
  env.keys = &pool;
  EXPECT_TRUE(KeysToGenerate(env).empty());
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  EXPECT_EQ(Snapshot(node), before);
  EXPECT_EQ(node.TakeOutput(),
            "[certs] Using existing ca certificate authority\n"
            "[certs] Using existing apiserver certificate and key on disk\n"
            "[certs] Using existing apiserver-kubelet-client certificate and key on disk\n"
            "[certs] Using existing front-proxy-ca certificate authority\n"
            "[certs] Using existing front-proxy-client certificate and key on disk\n"
            "[certs] Using existing etcd/ca certificate authority\n"
            "[certs] Using existing etcd/server certificate and key on disk\n"
            "[certs] Using existing etcd/peer certificate and key on disk\n"
            "[certs] Using existing etcd/healthcheck-client certificate and key on disk\n"
            "[certs] Using existing apiserver-etcd-client certificate and key on disk\n"
            "[certs] Using the existing \"sa\" key\n");
}

TEST(CertsTest, LeafSignedByAnotherCaIsRefused) {
  testing::TestNode node;
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  // Replace apiserver.{crt,key} with a pair signed by a stranger CA.
  auto key = util::pki::PrivateKey::Generate(util::pki::KeyType::kEcdsaP256);
  util::pki::CertConfig c;
  c.common_name = "kubernetes";
  c.not_before = node.clock.Now() - std::chrono::hours(1);
  c.not_after = node.clock.Now() + std::chrono::hours(1);
  auto stranger = util::pki::SelfSignCA(c, *key);
  c.common_name = "kube-apiserver";
  c.usages = {util::pki::ExtKeyUsage::kServerAuth};
  auto leaf = util::pki::SignLeaf(c, *key, *stranger, *key);
  ASSERT_TRUE(util::pki::WriteCertAndKey(node.fs, kPki, "apiserver", *leaf, *key).ok());
  auto before = node.Read("/etc/kubernetes/pki/apiserver.crt");
  Status s = CreateLeaf(*FindCertSpec("apiserver"), env);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(
      s.message().find("[certs] certificate apiserver not signed by CA certificate ca: x509:"),
      std::string::npos)
      << s.message();
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/apiserver.crt"), before);
}

TEST(CertsTest, InvalidExistingFilesAreErrors) {
  testing::TestNode node;
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  // A leaf certificate where the CA should be.
  ASSERT_TRUE(node.fs
                  .WriteFile("/etc/kubernetes/pki/front-proxy-ca.crt",
                             node.Read("/etc/kubernetes/pki/front-proxy-client.crt"), 0644)
                  .ok());
  EXPECT_NE(CreateCA(*FindCertSpec("front-proxy-ca"), env).message().find("is not a CA"),
            std::string::npos);
  // Garbage certificate.
  ASSERT_TRUE(node.fs.WriteFile("/etc/kubernetes/pki/etcd/peer.crt", "garbage", 0644).ok());
  EXPECT_NE(CreateLeaf(*FindCertSpec("etcd-peer"), env)
                .message()
                .find("failure loading etcd/peer certificate"),
            std::string::npos);
  // A key that belongs to another certificate.
  ASSERT_TRUE(node.fs
                  .WriteFile("/etc/kubernetes/pki/apiserver.key",
                             node.Read("/etc/kubernetes/pki/apiserver-etcd-client.key"), 0600)
                  .ok());
  EXPECT_NE(CreateLeaf(*FindCertSpec("apiserver"), env).message().find("does not match"),
            std::string::npos);
  // A key without its certificate.
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/front-proxy-client.crt").ok());
  EXPECT_FALSE(CreateLeaf(*FindCertSpec("front-proxy-client"), env).ok());
  // A broken sa.key.
  ASSERT_TRUE(node.fs.WriteFile("/etc/kubernetes/pki/sa.key", "broken", 0600).ok());
  EXPECT_NE(CreateServiceAccountKeys(env).message().find(
                "file sa.key existed but it could not be loaded"),
            std::string::npos);
}

TEST(CertsTest, LeafWithoutCaFailsClearly) {
  testing::TestNode node;
  auto env = Env(node);
  Status s = CreateLeaf(*FindCertSpec("apiserver"), env);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message().rfind(
                "couldn't load CA certificate ca: failure loading ca certificate authority", 0),
            0u)
      << s.message();
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/pki/apiserver.crt"));
  // With the CA created first, the same sub-phase alone works.
  ASSERT_TRUE(CreateCA(*FindCertSpec("ca"), env).ok());
  EXPECT_TRUE(CreateLeaf(*FindCertSpec("apiserver"), env).ok());
}

TEST(CertsTest, ExternalCaValidatesAndNeverSigns) {
  testing::TestNode node;
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/ca.key").ok());
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/front-proxy-ca.key").ok());
  node.data.external_ca = true;
  auto ext = Env(node);
  auto before = Snapshot(node);
  node.TakeOutput();
  util::pki::KeyPool pool;
  ext.keys = &pool;
  EXPECT_TRUE(KeysToGenerate(ext).empty());
  ASSERT_TRUE(CreatePKIAssets(ext).ok());
  EXPECT_EQ(Snapshot(node), before);
  std::string out = node.TakeOutput();
  EXPECT_NE(out.find("[certs] Using existing ca keyless certificate authority\n"),
            std::string::npos);
  EXPECT_NE(out.find("[certs] Using existing front-proxy-ca keyless certificate authority\n"),
            std::string::npos);
  EXPECT_NE(out.find("[certs] Using existing sa keys\n"), std::string::npos);
  // A missing leaf cannot be made without the CA key.
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/apiserver.crt").ok());
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/apiserver.key").ok());
  EXPECT_EQ(KeysToGenerate(ext), std::vector<std::string>{});
  Status s = CreateLeaf(*FindCertSpec("apiserver"), ext);
  EXPECT_EQ(s.message().rfind(
                "couldn't load CA certificate ca: failure loading ca certificate authority: "
                "failed to load key",
                0),
            0u)
      << s.message();
}

TEST(CertsTest, ExternalEtcdSkipsEtcdCertificates) {
  testing::TestNode node;
  node.data.cfg.cluster.etcd.local.reset();
  node.data.cfg.cluster.etcd.external = config::ExternalEtcd{{"https://10.0.0.9:2379"}, "", "", ""};
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  std::string out = node.TakeOutput();
  EXPECT_NE(
      out.find("[certs] External etcd mode: Skipping etcd/ca certificate authority generation\n"),
      std::string::npos);
  EXPECT_NE(out.find("[certs] External etcd mode: Skipping etcd/server certificate generation\n"),
            std::string::npos);
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/pki/etcd"));
  EXPECT_TRUE(node.fs.Exists("/etc/kubernetes/pki/apiserver-kubelet-client.crt"));
}

TEST(CertsTest, KeysToGenerateAndServiceAccountPublicKey) {
  testing::TestNode node;
  auto env = Env(node);
  EXPECT_EQ(KeysToGenerate(env).size(), 11u);
  ASSERT_TRUE(CreateServiceAccountKeys(env).ok());
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/sa.pub").ok());
  auto key = node.Read("/etc/kubernetes/pki/sa.key");
  node.TakeOutput();
  ASSERT_TRUE(CreateServiceAccountKeys(env).ok());
  EXPECT_EQ(node.TakeOutput(), "[certs] Using the existing \"sa\" key\n");
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/sa.key"), key);
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/sa.pub"),
            *util::pki::PrivateKey::ParsePem(key)->PublicKeyPem());
  EXPECT_EQ(KeysToGenerate(env).size(), 10u);
}

TEST(CertsTest, RsaPkiUsesRsaEverywhere) {
  testing::TestNode node(config::EncryptionAlgorithm::kRsa2048);
  auto env = Env(node);
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  for (const auto& base : {"ca", "apiserver", "etcd/peer"}) {
    auto key = util::pki::LoadKey(node.fs, std::string(kPki) + "/" + base + ".key");
    ASSERT_TRUE(key.has_value());
    EXPECT_TRUE(key->IsRsa());
    EXPECT_EQ(key->Bits(), 2048);
  }
  EXPECT_EQ(node.Read("/etc/kubernetes/pki/sa.key").rfind("-----BEGIN RSA PRIVATE KEY-----", 0),
            0u);
}

}  // namespace
}  // namespace kkadm::phases::certs
