#include "app/util/pki/csr.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/fakes/temp_dir.h"
#include "tests/util/pki/run_command.h"

namespace kkadm::util::pki {
namespace {

using kkadm::testing::RunCommand;
using kkadm::testing::ShellQuote;

// openssl's reading of the request: its signature, subject and SANs.
std::string OpenSslText(const std::string& pem) {
  kkadm::testing::TempDir dir;
  const std::string path = dir.path() + "/req.csr";
  std::ofstream(path) << pem;
  auto result = RunCommand("openssl req -in " + ShellQuote(path) +
                           " -noout -verify -subject -nameopt RFC2253 -text 2>&1");
  EXPECT_EQ(result.exit_code, 0) << result.out;
  return result.out;
}

TEST(CsrTest, CarriesSubjectAndSansAndVerifies) {
  for (KeyType type : {KeyType::kRsa2048, KeyType::kEcdsaP256, KeyType::kEcdsaP384}) {
    auto key = PrivateKey::Generate(type);
    ASSERT_TRUE(key.has_value());
    CertConfig config;
    config.common_name = "kube-apiserver";
    config.organizations = {"a", "b"};
    config.dns_names = {"kubernetes", "node-1"};
    config.ips = {"10.96.0.1", "fd00::1"};
    auto pem = CreateCsrPem(config, *key);
    ASSERT_TRUE(pem.has_value()) << pem.error().message();
    EXPECT_EQ(pem->rfind("-----BEGIN CERTIFICATE REQUEST-----\n", 0), 0u);
    const std::string text = OpenSslText(*pem);
    EXPECT_NE(text.find("verify OK"), std::string::npos) << text;
    EXPECT_NE(text.find("subject=CN=kube-apiserver,O=b,O=a"), std::string::npos) << text;
    EXPECT_NE(
        text.find(
            "DNS:kubernetes, DNS:node-1, IP Address:10.96.0.1, IP Address:FD00:0:0:0:0:0:0:1"),
        std::string::npos)
        << text;
  }
}

TEST(CsrTest, WithoutSansHasNoExtensionRequestAndNeedsACommonName) {
  auto key = PrivateKey::Generate(KeyType::kEcdsaP256);
  CertConfig config;
  config.common_name = "system:kube-scheduler";
  auto pem = CreateCsrPem(config, *key);
  ASSERT_TRUE(pem.has_value());
  EXPECT_EQ(OpenSslText(*pem).find("Subject Alternative Name"), std::string::npos);
  config.common_name.clear();
  EXPECT_EQ(CreateCsrPem(config, *key).error().message(), "must specify a CommonName");
}

}  // namespace
}  // namespace kkadm::util::pki
