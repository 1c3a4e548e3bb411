#include "app/util/pki/certificate.h"

#include <gtest/gtest.h>

#include <fstream>

#include "app/util/pki/sign.h"
#include "app/util/pubkey_pin.h"
#include "tests/fakes/temp_dir.h"
#include "tests/util/pki/run_command.h"

namespace kkadm::util::pki {
namespace {

Certificate NewCa(const std::string& cn, const PrivateKey& key) {
  CertConfig c;
  c.common_name = cn;
  c.not_before = std::chrono::system_clock::now() - std::chrono::minutes(5);
  c.not_after = c.not_before + std::chrono::hours(24);
  return *SelfSignCA(c, key);
}

TEST(CertificateTest, PemRoundTripAndBundle) {
  auto k1 = PrivateKey::Generate(KeyType::kEcdsaP256);
  auto k2 = PrivateKey::Generate(KeyType::kEcdsaP256);
  Certificate a = NewCa("a", *k1);
  Certificate b = NewCa("b", *k2);
  std::string bundle = "junk before\n" + *k1->ToPem() + a.ToPem() + b.ToPem();
  auto first = Certificate::ParsePem(bundle);
  ASSERT_TRUE(first.has_value()) << first.error().message();
  EXPECT_EQ(first->CommonName(), "a");
  EXPECT_EQ(first->ToDer(), a.ToDer());
  auto all = Certificate::ParsePemBundle(bundle);
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[1].CommonName(), "b");
  Certificate copy = (*all)[1];  // copies share the X509
  EXPECT_EQ(copy.ToPem(), b.ToPem());
}

TEST(CertificateTest, RejectsMissingOrBrokenCertificates) {
  EXPECT_EQ(Certificate::ParsePem("").error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Certificate::ParsePem("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
                .error()
                .code(),
            StatusCode::kInvalidArgument);
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  EXPECT_FALSE(Certificate::ParsePemBundle(*key->ToPem()).has_value());
}

// The pin must equal what kubeadm documents: openssl x509 -pubkey | openssl pkey -pubin -outform
// der | openssl dgst -sha256.
TEST(CertificateTest, PinMatchesOpenSslCli) {
  testing::TempDir dir;
  for (auto type : {KeyType::kRsa2048, KeyType::kEcdsaP256}) {
    auto key = PrivateKey::Generate(type);
    Certificate ca = NewCa("kubernetes", *key);
    std::string path = dir.path() + "/ca.crt";
    std::ofstream(path) << ca.ToPem();
    auto r = testing::RunCommand("openssl x509 -in " + path +
                                 " -pubkey -noout | openssl pkey -pubin -outform der | "
                                 "openssl dgst -sha256 -r | cut -d' ' -f1");
    ASSERT_EQ(r.exit_code, 0);
    EXPECT_EQ(*util::PinOfPemCertificate(ca.ToPem()), "sha256:" + r.out.substr(0, 64));
    EXPECT_EQ(ca.PublicKeyDer(), *key->PublicKeyDer());
  }
}

}  // namespace
}  // namespace kkadm::util::pki
