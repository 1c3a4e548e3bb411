// The syntax checks of node validation against the regular expressions they replaced.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/config/validate.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/regex_oracle.h"

namespace kkadm::config {
namespace {

using kkadm::testing::OracleInputs;
using kkadm::testing::RegexDisagreements;
using ::testing::IsEmpty;

NodeRegistration ValidNode() {
  NodeRegistration node;
  node.name = "node";
  node.cri_socket = "unix:///c";
  return node;
}

// True when `check` leaves a Checker without a failure.
template <class Check>
bool Passes(Check check) {
  std::vector<std::string> warnings;
  Checker checker("test", warnings);
  check(checker);
  return checker.ok();
}

// Whether `validate`, a check of one field such as ValidateTokenSyntax, accepts a value.
using FieldCheck = void (*)(const std::string& value, const std::string& path, Checker& check);
auto Accepts(FieldCheck validate) {
  return [validate](const std::string& value) {
    return Passes([&](Checker& check) { validate(value, "field", check); });
  };
}

TEST(ValidateNodeTest, TaintKeyMatchesQualifiedNamePattern) {
  const std::string pattern =
      R"(([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?)"
      R"([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)";
  const auto inputs = OracleInputs({"node-role.kubernetes.io/control-plane", "example.com/My_Key.1",
                                    "key", "/key", "a/", "a/b/c", "A.b/c", "a..b/c", "-a/b", "a/-b",
                                    "a/b_", "a_b", std::string(300, 'a'), "a\n/b", "a/b\n"},
                                   "a0-._A/\n", 4);
  EXPECT_THAT(RegexDisagreements(pattern, inputs,
                                 [](const std::string& key) {
                                   NodeRegistration node = ValidNode();
                                   node.taints = {{Taint{key, "", "NoSchedule"}}};
                                   return Passes([&](Checker& c) {
                                     ValidateNodeRegistration(node, "nodeRegistration", c);
                                   });
                                 }),
              IsEmpty());
}

TEST(ValidateNodeTest, TokenSyntaxMatchesPattern) {
  const auto inputs = OracleInputs({"abcdef.0123456789abcdef", "abcdef.0123456789abcde",
                                    "Abcdef.0123456789abcdef", "abcdef-0123456789abcdef"},
                                   "a0.Z-\n", 4);
  EXPECT_THAT(
      RegexDisagreements("^[a-z0-9]{6}\\.[a-z0-9]{16}$", inputs, Accepts(ValidateTokenSyntax)),
      IsEmpty());
}

TEST(ValidateNodeTest, CertificateKeyMatchesPattern) {
  const std::string key(64, 'f');
  const auto inputs = OracleInputs({key, "0123456789abcdef" + key.substr(16), key + "0",
                                    key.substr(1), "A" + key.substr(1), "g" + key.substr(1)},
                                   "0fAg\n", 4);
  // An empty key means "none" and passes.
  EXPECT_THAT(RegexDisagreements("^$|^[0-9a-f]{64}$", inputs, Accepts(ValidateCertificateKey)),
              IsEmpty());
}

TEST(ValidateNodeTest, CaCertHashMatchesPattern) {
  const std::string hex(64, 'a');
  const auto inputs =
      OracleInputs({"sha256:" + hex, "sha256:" + std::string(64, 'F'), "sha256:" + hex.substr(1),
                    "sha256:" + hex + "0", "SHA256:" + hex, "sha256:" + hex.substr(1) + "g",
                    "sha256" + hex, "sha256:" + hex + "\n"},
                   "aF9g:s\n", 3);
  EXPECT_THAT(RegexDisagreements("^sha256:[0-9a-fA-F]{64}$", inputs,
                                 [](const std::string& hash) {
                                   JoinConfiguration cfg;
                                   cfg.node_registration = ValidNode();
                                   cfg.discovery.bootstrap_token = BootstrapTokenDiscovery{
                                       .token = "abcdef.0123456789abcdef",
                                       .api_server_endpoint = "192.0.2.1:6443",
                                       .ca_cert_hashes = {hash}};
                                   cfg.discovery.tls_bootstrap_token = "abcdef.0123456789abcdef";
                                   std::vector<std::string> warnings;
                                   return ValidateJoinConfiguration(
                                              cfg, "join.yaml", testing::FakeMachine(), warnings)
                                       .ok();
                                 }),
              IsEmpty());
}

}  // namespace
}  // namespace kkadm::config
