// The generated PKI checked by the real openssl CLI: every chain verifies, and `openssl x509 -text`
// shows kubeadm's subjects, SANs, usages, basic constraints and validity.
#include <gtest/gtest.h>

#include <regex>

#include "app/phases/certs/certs.h"
#include "tests/phases/certs/test_node.h"
#include "tests/util/pki/run_command.h"

namespace kkadm::phases::certs {
namespace {

struct Expect {
  std::string base, ca_base, subject, sans, eku;
  bool is_ca;
};

std::vector<Expect> Expected() {
  const std::string etcd_sans =
      "DNS:localhost, DNS:node-1, IP Address:192.0.2.10, IP Address:127.0.0.1, "
      "IP Address:0:0:0:0:0:0:0:1";
  return {
      {"ca", "", "CN = kubernetes", "DNS:kubernetes", "", true},
      {"apiserver", "ca", "CN = kube-apiserver",
       "DNS:cp.example.com, DNS:kubernetes, DNS:kubernetes.default, DNS:kubernetes.default.svc, "
       "DNS:kubernetes.default.svc.cluster.local, DNS:node-1, IP Address:10.96.0.1, IP "
       "Address:192.0.2.10, "
       "IP Address:10.0.0.5",
       "TLS Web Server Authentication", false},
      {"apiserver-kubelet-client", "ca",
       "O = kubeadm:cluster-admins, CN = kube-apiserver-kubelet-client", "",
       "TLS Web Client Authentication", false},
      {"front-proxy-ca", "", "CN = front-proxy-ca", "DNS:front-proxy-ca", "", true},
      {"front-proxy-client", "front-proxy-ca", "CN = front-proxy-client", "",
       "TLS Web Client Authentication", false},
      {"etcd/ca", "", "CN = etcd-ca", "DNS:etcd-ca", "", true},
      {"etcd/server", "etcd/ca", "CN = node-1", etcd_sans,
       "TLS Web Server Authentication, TLS Web Client Authentication", false},
      {"etcd/peer", "etcd/ca", "CN = node-1", etcd_sans,
       "TLS Web Server Authentication, TLS Web Client Authentication", false},
      {"etcd/healthcheck-client", "etcd/ca", "CN = kube-etcd-healthcheck-client", "",
       "TLS Web Client Authentication", false},
      {"apiserver-etcd-client", "etcd/ca", "CN = kube-apiserver-etcd-client", "",
       "TLS Web Client Authentication", false},
  };
}

// The line after "<header>" in `openssl x509 -text` output, trimmed; "" when absent.
std::string After(const std::string& text, const std::string& header) {
  auto pos = text.find(header);
  if (pos == std::string::npos) return "";
  auto start = text.find('\n', pos) + 1;
  auto end = text.find('\n', start);
  std::string line = text.substr(start, end - start);
  return line.substr(line.find_first_not_of(' '));
}

std::string Field(const std::string& text, const std::string& prefix) {
  std::smatch m;
  if (std::regex_search(text, m, std::regex(prefix + ": *([^\\n]*)"))) return m[1];
  return "";
}

// `openssl x509 -text` of one certificate shows kubeadm's subject, SANs, usages, basic
// constraints and key type.
void ExpectOpenSslText(const std::string& text, const Expect& e, const std::string& key_word) {
  EXPECT_EQ(Field(text, "Subject"), e.subject);
  EXPECT_EQ(After(text, "X509v3 Subject Alternative Name"), e.sans);
  EXPECT_NE(text.find("X509v3 Key Usage: critical"), std::string::npos);
  EXPECT_EQ(After(text, "X509v3 Key Usage: critical"),
            e.is_ca ? "Digital Signature, Key Encipherment, Certificate Sign"
                    : "Digital Signature, Key Encipherment");
  EXPECT_EQ(After(text, "X509v3 Extended Key Usage"), e.eku);
  EXPECT_EQ(After(text, "X509v3 Basic Constraints: critical"), e.is_ca ? "CA:TRUE" : "CA:FALSE");
  EXPECT_NE(text.find(key_word), std::string::npos);
  EXPECT_NE(text.find("Signature Algorithm: " + std::string(key_word == "rsaEncryption"
                                                                ? "sha256WithRSAEncryption"
                                                                : "ecdsa-with-SHA256")),
            std::string::npos);
}

// Validity: CAs 10 years, leaves 1 year (openssl -checkend counts seconds from now).
void ExpectValidity(const std::string& crt, bool is_ca) {
  int days = is_ca ? 3650 : 365;
  auto inside = testing::RunCommand("openssl x509 -noout -checkend " +
                                    std::to_string((days - 1) * 86400) + " -in " + crt);
  auto outside = testing::RunCommand("openssl x509 -noout -checkend " +
                                     std::to_string((days + 1) * 86400) + " -in " + crt);
  EXPECT_EQ(inside.exit_code, 0);
  EXPECT_EQ(outside.exit_code, 1);
}

// The certificate verifies against its CA (a CA against itself) and matches its key.
void ExpectChainAndKey(const std::string& pki, const Expect& e) {
  std::string crt = pki + e.base + ".crt";
  std::string ca = pki + (e.is_ca ? e.base : e.ca_base) + ".crt";
  auto verify = testing::RunCommand("openssl verify -CAfile " + ca + " " + crt + " 2>&1");
  EXPECT_EQ(verify.exit_code, 0) << verify.out;
  EXPECT_EQ(verify.out, crt + ": OK\n");
  auto match = testing::RunCommand(
      "bash -c " + testing::ShellQuote("diff <(openssl x509 -noout -pubkey -in " + crt +
                                       ") <(openssl pkey -pubout -in " + pki + e.base + ".key)"));
  EXPECT_EQ(match.exit_code, 0);
}

void CheckWithOpenSsl(config::EncryptionAlgorithm algorithm, const std::string& key_word) {
  testing::TestNode node(algorithm);
  node.data.cfg.cluster.control_plane_endpoint = "cp.example.com";
  node.data.cfg.cluster.api_server.cert_sans = {"10.0.0.5"};
  CertsEnv env{node.data.cfg, node.fs, node.printer, node.clock, false, nullptr};
  ASSERT_TRUE(CreatePKIAssets(env).ok());
  std::string pki = node.HostPath("/etc/kubernetes/pki") + "/";
  for (const auto& e : Expected()) {
    SCOPED_TRACE(e.base);
    std::string crt = pki + e.base + ".crt";
    auto text =
        testing::RunCommand("openssl x509 -noout -text -nameopt oneline,-esc_msb -in " + crt);
    ASSERT_EQ(text.exit_code, 0);
    ExpectOpenSslText(text.out, e, key_word);
    ExpectValidity(crt, e.is_ca);
    ExpectChainAndKey(pki, e);
  }
  // A leaf never verifies against another CA.
  auto wrong = testing::RunCommand("openssl verify -CAfile " + pki + "etcd/ca.crt " + pki +
                                   "apiserver.crt 2>&1");
  EXPECT_NE(wrong.exit_code, 0);
  auto sa =
      testing::RunCommand("bash -c " + testing::ShellQuote("diff <(openssl pkey -pubout -in " +
                                                           pki + "sa.key) " + pki + "sa.pub"));
  EXPECT_EQ(sa.exit_code, 0) << sa.out;
}

TEST(CertsOpenSslTest, EcdsaP256PkiPassesOpenSsl) {
  CheckWithOpenSsl(config::EncryptionAlgorithm::kEcdsaP256, "id-ecPublicKey");
}

TEST(CertsOpenSslTest, Rsa2048PkiPassesOpenSsl) {
  CheckWithOpenSsl(config::EncryptionAlgorithm::kRsa2048, "rsaEncryption");
}

}  // namespace
}  // namespace kkadm::phases::certs
