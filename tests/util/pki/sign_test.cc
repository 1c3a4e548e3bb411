#include "app/util/pki/sign.h"

#include <gtest/gtest.h>

#include "app/util/pki/certificate.h"

namespace kkadm::util::pki {
namespace {

using std::chrono::hours;

TimePoint Start() { return std::chrono::system_clock::from_time_t(1'700'000'000); }

CertConfig CaConfig(const std::string& cn) {
  CertConfig c;
  c.common_name = cn;
  c.not_before = Start() - std::chrono::minutes(5);
  c.not_after = Start() + hours(87600);
  return c;
}

struct Ca {
  PrivateKey key;
  Certificate cert;
};

Ca MakeCa(KeyType type, const std::string& cn) {
  auto key = PrivateKey::Generate(type);
  auto cert = SelfSignCA(CaConfig(cn), *key);
  EXPECT_TRUE(cert.has_value()) << cert.error().message();
  return Ca{std::move(*key), std::move(*cert)};
}

CertConfig ServerConfig() {
  CertConfig c;
  c.common_name = "kube-apiserver";
  c.dns_names = {"node-1", "kubernetes", "kubernetes.default", "kubernetes"};
  c.ips = {"10.96.0.1", "192.0.2.10", "10.96.0.1", "fd00::1"};
  c.usages = {ExtKeyUsage::kServerAuth};
  c.not_before = Start() - std::chrono::minutes(5);
  c.not_after = Start() + hours(8760);
  return c;
}

TEST(SignTest, SelfSignedCaHasKubeadmTemplate) {
  for (auto type : {KeyType::kRsa2048, KeyType::kEcdsaP256}) {
    Ca ca = MakeCa(type, "kubernetes");
    const Certificate& c = ca.cert;
    EXPECT_EQ(c.CommonName(), "kubernetes");
    EXPECT_TRUE(c.Organizations().empty());
    EXPECT_TRUE(c.IsCa());
    EXPECT_EQ(c.DnsNames(), std::vector<std::string>{"kubernetes"});
    EXPECT_TRUE(c.IpAddresses().empty());
    EXPECT_EQ(c.KeyUsage(),
              kKeyUsageDigitalSignature | kKeyUsageKeyEncipherment | kKeyUsageCertSign);
    EXPECT_TRUE(c.ExtKeyUsages().empty());
    EXPECT_EQ(c.NotBefore(), Start() - std::chrono::minutes(5));
    EXPECT_EQ(c.NotAfter(), Start() + hours(87600));
    EXPECT_TRUE(c.VerifySignedBy(c).ok());
    EXPECT_TRUE(c.MatchesKey(ca.key));
    EXPECT_NE(X509_get0_subject_key_id(c.get()), nullptr);
  }
}

TEST(SignTest, LeafCarriesSansUsagesAndChains) {
  Ca ca = MakeCa(KeyType::kEcdsaP256, "kubernetes");
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  auto cert = SignLeaf(ServerConfig(), *key, ca.cert, ca.key);
  ASSERT_TRUE(cert.has_value()) << cert.error().message();
  EXPECT_EQ(cert->CommonName(), "kube-apiserver");
  EXPECT_FALSE(cert->IsCa());
  EXPECT_EQ(cert->DnsNames(),
            (std::vector<std::string>{"kubernetes", "kubernetes.default", "node-1"}));
  EXPECT_EQ(cert->IpAddresses(), (std::vector<std::string>{"10.96.0.1", "192.0.2.10", "fd00::1"}));
  EXPECT_EQ(cert->KeyUsage(), kKeyUsageDigitalSignature | kKeyUsageKeyEncipherment);
  EXPECT_EQ(cert->ExtKeyUsages(), std::vector<ExtKeyUsage>{ExtKeyUsage::kServerAuth});
  EXPECT_TRUE(cert->MatchesKey(*key));
  EXPECT_FALSE(cert->MatchesKey(ca.key));
  EXPECT_TRUE(cert->VerifySignedBy(ca.cert).ok());
  EXPECT_TRUE(cert->VerifyChain({}, ca.cert, Start()).ok());
  EXPECT_TRUE(cert->VerifyChain({}, ca.cert, std::nullopt).ok());
  // Outside the validity window the chain check fails, as Go's Verify does.
  auto late = cert->VerifyChain({}, ca.cert, Start() + hours(9000));
  EXPECT_FALSE(late.ok());
  EXPECT_NE(late.message().find("expired"), std::string::npos) << late.message();
}

// EC certificates get their SubjectPublicKeyInfo written field by field (sign.cc): it must be
// the bytes OpenSSL's own encoder gives, and the certificate must read back with its key.
TEST(SignTest, EcPublicKeyIsOpenSslsEncoding) {
  for (auto type : {KeyType::kEcdsaP256, KeyType::kEcdsaP384}) {
    Ca ca = MakeCa(type, "kubernetes");
    EXPECT_EQ(ca.cert.PublicKeyDer(), *ca.key.PublicKeyDer()) << KeyTypeName(type);
    EXPECT_TRUE(ca.cert.MatchesKey(ca.key));
    auto key = PrivateKey::Generate(type);
    auto cert = SignLeaf(ServerConfig(), *key, ca.cert, ca.key);
    ASSERT_TRUE(cert.has_value()) << cert.error().message();
    EXPECT_EQ(cert->PublicKeyDer(), *key->PublicKeyDer()) << KeyTypeName(type);
    auto parsed = Certificate::ParsePem(cert->ToPem());
    ASSERT_TRUE(parsed.has_value());
    EXPECT_TRUE(parsed->MatchesKey(*key));
    EXPECT_FALSE(parsed->MatchesKey(ca.key));
    EXPECT_TRUE(parsed->VerifyChain({}, ca.cert, Start()).ok());
    // A copy keeps the rule that the key is decoded on demand.
    Certificate copy = *cert;
    EXPECT_TRUE(copy.MatchesKey(*key));
  }
}

TEST(SignTest, ClientCertWithOrganizations) {
  Ca ca = MakeCa(KeyType::kRsa2048, "kubernetes");
  auto key = PrivateKey::Generate(KeyType::kRsa2048);
  CertConfig c = ServerConfig();
  c.common_name = "system:node:node-1";
  c.organizations = {"system:nodes", "other_group"};
  c.dns_names.clear();
  c.ips.clear();
  c.usages = {ExtKeyUsage::kClientAuth};
  auto cert = SignLeaf(c, *key, ca.cert, ca.key);
  ASSERT_TRUE(cert.has_value());
  EXPECT_EQ(cert->CommonName(), "system:node:node-1");
  EXPECT_EQ(cert->Organizations(), (std::vector<std::string>{"system:nodes", "other_group"}));
  EXPECT_TRUE(cert->DnsNames().empty());
  EXPECT_TRUE(cert->HasExtKeyUsage(ExtKeyUsage::kClientAuth));
  EXPECT_FALSE(cert->HasExtKeyUsage(ExtKeyUsage::kServerAuth));
  EXPECT_TRUE(cert->VerifyChain({}, ca.cert, Start()).ok());
}

TEST(SignTest, WrongCaIsRejected) {
  Ca ca = MakeCa(KeyType::kEcdsaP256, "kubernetes");
  Ca other = MakeCa(KeyType::kEcdsaP256, "kubernetes");  // same name, different key
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  auto cert = SignLeaf(ServerConfig(), *key, ca.cert, ca.key);
  ASSERT_TRUE(cert.has_value());
  EXPECT_FALSE(cert->VerifySignedBy(other.cert).ok());
  EXPECT_FALSE(cert->VerifyChain({}, other.cert, Start()).ok());
  // A CA key that does not belong to the CA certificate is refused before signing.
  EXPECT_EQ(SignLeaf(ServerConfig(), *key, ca.cert, other.key).error().code(),
            StatusCode::kFailedPrecondition);
}

TEST(SignTest, ChainThroughIntermediate) {
  Ca root = MakeCa(KeyType::kEcdsaP256, "root");
  auto mid_key = PrivateKey::Generate(KeyType::kEcdsaP256);
  CertConfig mid_cfg = CaConfig("intermediate");
  mid_cfg.is_ca = true;
  auto mid = SignLeaf(mid_cfg, *mid_key, root.cert, root.key);
  ASSERT_TRUE(mid.has_value()) << mid.error().message();
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  auto leaf = SignLeaf(ServerConfig(), *key, *mid, *mid_key);
  ASSERT_TRUE(leaf.has_value());
  EXPECT_TRUE(leaf->VerifyChain({*mid}, root.cert, Start()).ok());
  EXPECT_FALSE(leaf->VerifyChain({}, root.cert, Start()).ok());
}

TEST(SignTest, RejectsBadConfig) {
  Ca ca = MakeCa(KeyType::kEcdsaP256, "kubernetes");
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  CertConfig c = ServerConfig();
  c.usages.clear();
  EXPECT_EQ(SignLeaf(c, *key, ca.cert, ca.key).error().code(), StatusCode::kInvalidArgument);
  c = ServerConfig();
  c.ips.push_back("not-an-ip");
  EXPECT_EQ(SignLeaf(c, *key, ca.cert, ca.key).error().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(SelfSignCA(CaConfig(""), *key).has_value());
}

TEST(SignTest, SerialsArePositiveAndDistinct) {
  Ca a = MakeCa(KeyType::kEcdsaP256, "a");
  Ca b = MakeCa(KeyType::kEcdsaP256, "b");
  EXPECT_NE(a.cert.SerialHex(), b.cert.SerialHex());
  EXPECT_LE(a.cert.SerialHex().size(), 16u);  // below 2^63
  EXPECT_NE(a.cert.SerialHex().front(), '-');
}

}  // namespace
}  // namespace kkadm::util::pki
