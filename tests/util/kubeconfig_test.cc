#include "app/util/kubeconfig.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/fakes/temp_dir.h"
#include "tests/util/pki/run_command.h"

namespace kkadm::util {
namespace {

const char kCa[] = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

TEST(KubeconfigTest, EncodesLikeClientGo) {
  Kubeconfig k = NewKubeconfigWithClientCert("https://192.0.2.10:6443", "kubernetes",
                                             "kubernetes-admin", "CA", "KEY", "CERT");
  EXPECT_EQ(EncodeKubeconfig(k),
            "apiVersion: v1\n"
            "clusters:\n"
            "- cluster:\n"
            "    certificate-authority-data: Q0E=\n"
            "    server: https://192.0.2.10:6443\n"
            "  name: kubernetes\n"
            "contexts:\n"
            "- context:\n"
            "    cluster: kubernetes\n"
            "    user: kubernetes-admin\n"
            "  name: kubernetes-admin@kubernetes\n"
            "current-context: kubernetes-admin@kubernetes\n"
            "kind: Config\n"
            "preferences: {}\n"
            "users:\n"
            "- name: kubernetes-admin\n"
            "  user:\n"
            "    client-certificate-data: Q0VSVA==\n"
            "    client-key-data: S0VZ\n");
}

TEST(KubeconfigTest, RoundTripsAndFindsCurrentEntries) {
  Kubeconfig k = NewKubeconfigWithToken("https://[fd00::1]:6443", "kubernetes", "system:node:n1",
                                        kCa, "abcdef.0123456789abcdef");
  auto back = DecodeKubeconfig(EncodeKubeconfig(k));
  ASSERT_TRUE(back.has_value()) << back.error().message();
  ASSERT_NE(back->CurrentCluster(), nullptr);
  EXPECT_EQ(back->CurrentCluster()->server, "https://[fd00::1]:6443");
  EXPECT_EQ(back->CurrentCluster()->certificate_authority_data, kCa);
  ASSERT_NE(back->CurrentUser(), nullptr);
  EXPECT_EQ(back->CurrentUser()->name, "system:node:n1");
  EXPECT_EQ(back->CurrentUser()->token, "abcdef.0123456789abcdef");
  EXPECT_EQ(back->current_context, "system:node:n1@kubernetes");
  EXPECT_FALSE(back->CurrentCluster()->insecure_skip_tls_verify);
  k.clusters[0].insecure_skip_tls_verify = true;
  const std::string insecure = EncodeKubeconfig(k);
  EXPECT_NE(insecure.find("    insecure-skip-tls-verify: true\n    server: "), std::string::npos);
  EXPECT_TRUE(DecodeKubeconfig(insecure)->CurrentCluster()->insecure_skip_tls_verify);
}

TEST(KubeconfigTest, QuotesScalarsThatWouldChangeType) {
  Kubeconfig k = NewKubeconfigWithToken("https://a:1", "true", "123", "", "x: y");
  std::string yaml = EncodeKubeconfig(k);
  EXPECT_NE(yaml.find("name: \"true\"\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("- name: \"123\"\n"), std::string::npos) << yaml;
  auto back = DecodeKubeconfig(yaml);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->clusters[0].name, "true");
  EXPECT_EQ(back->users[0].token, "x: y");
}

TEST(KubeconfigTest, RejectsMalformedInput) {
  EXPECT_FALSE(DecodeKubeconfig("clusters: [").has_value());
  EXPECT_FALSE(DecodeKubeconfig("- a\n- b\n").has_value());
  EXPECT_FALSE(DecodeKubeconfig("clusters: 3\n").has_value());
  EXPECT_FALSE(
      DecodeKubeconfig("clusters:\n- name: c\n  cluster:\n    certificate-authority-data: '!!!'\n")
          .has_value());
}

// Kubeconfigs come from the network too: the YAML reader's limits apply before yaml-cpp loads.
TEST(KubeconfigTest, RefusesHostileInputAtOnce) {
  std::string bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'h'; ++c) {
    const std::string prev(1, static_cast<char>(c - 1));
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) bomb += (i ? ", *" : "*") + prev;
    bomb += "]\n";
  }
  EXPECT_EQ(DecodeKubeconfig(bomb).status().ToString(),
            "invalid kubeconfig: line 5, column 36: aliases expand the text to more than 100000 "
            "values (the limit)");
  EXPECT_EQ(
      DecodeKubeconfig(std::string(10'000, '[') + std::string(10'000, ']')).status().ToString(),
      "invalid kubeconfig: line 1, column 201: nested more than 200 levels deep (the limit)");
  EXPECT_EQ(DecodeKubeconfig("current-context: \xff\n").status().ToString(),
            "invalid kubeconfig: line 1, column 18: invalid UTF-8 byte \\xff");
}

TEST(KubeconfigTest, Base64) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("a"), "YQ==");
  EXPECT_EQ(Base64Encode("ab"), "YWI=");
  EXPECT_EQ(Base64Encode("abc"), "YWJj");
  for (const std::string& s :
       std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)}) {
    EXPECT_EQ(*Base64Decode(Base64Encode(s)), s);
  }
  EXPECT_EQ(*Base64Decode("YW\nJj\n"), "abc");
  EXPECT_FALSE(Base64Decode("abc").has_value());
  EXPECT_FALSE(Base64Decode("a*c=").has_value());
}

TEST(KubeconfigTest, ServerUrl) {
  EXPECT_EQ(FormatServerUrl("fd00::1", "6443"), "https://[fd00::1]:6443");
  EXPECT_EQ(FormatServerUrl("10.0.0.1", "6443"), "https://10.0.0.1:6443");
}

// The real kubectl reads what we write.
TEST(KubeconfigTest, KubectlReadsIt) {
  kkadm::testing::TempDir dir;
  Kubeconfig k = NewKubeconfigWithClientCert("https://127.0.0.1:6443", "kubernetes",
                                             "system:node:node-1", kCa, "KEY\n", "CERT\n");
  std::string path = dir.path() + "/admin.conf";
  std::ofstream(path) << EncodeKubeconfig(k);
  auto r =
      kkadm::testing::RunCommand("kubectl config view --kubeconfig " + path + " --raw -o json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto view = nlohmann::json::parse(r.out);
  EXPECT_EQ(view["current-context"], "system:node:node-1@kubernetes");
  EXPECT_EQ(view["clusters"][0]["cluster"]["server"], "https://127.0.0.1:6443");
  EXPECT_EQ(*Base64Decode(
                view["clusters"][0]["cluster"]["certificate-authority-data"].get<std::string>()),
            kCa);
  EXPECT_EQ(view["users"][0]["name"], "system:node:node-1");
  EXPECT_EQ(*Base64Decode(view["users"][0]["user"]["client-key-data"].get<std::string>()), "KEY\n");
}

}  // namespace
}  // namespace kkadm::util
