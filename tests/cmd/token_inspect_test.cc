// Tests for `kkadm token inspect`: the decoded fields in text, JSON and YAML, secrets redacted,
// and one-line errors that never repeat the argument.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/util/join_token.h"
#include "app/util/yaml/yaml.h"
#include "tests/cmd/sample_values.h"
#include "tests/cmd/token_fixture.h"

namespace kkadm::cmd {
namespace {

using samples::kKey;
using samples::kPin;

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

class TokenInspectTest : public testing::TokenCommandTest {
 protected:
  std::string Make(const std::string& certificate_key) {
    util::JoinToken token{.endpoints = {"10.123.0.1:6443", "[fd00::1]:6443"},
                          .bootstrap_token = "abcdef.0123456789abcdef",
                          .ca_cert_hashes = {kPin},
                          .certificate_key = certificate_key};
    return *util::EncodeJoinToken(token);
  }
  // The command's output holds no secret and the command made no API call.
  void ExpectNoSecrets() {
    for (const std::string& out : {cmd_out_.str(), cmd_err_.str(), status_.message()}) {
      EXPECT_THAT(out, Not(HasSubstr("0123456789abcdef")));
      EXPECT_THAT(out, Not(HasSubstr("kk1.AQ")));  // no token (every one here starts so)
    }
    EXPECT_TRUE(servers_.empty());
  }
};

TEST_F(TokenInspectTest, WorkerTokenAsText) {
  ASSERT_EQ(Run({"token", "inspect", Make("")}), 0) << status_.message();
  EXPECT_EQ(cmd_out_.str(),
            "format version:   1 (kk1.)\n"
            "endpoints:        10.123.0.1:6443, [fd00::1]:6443\n"
            "token id:         abcdef\n"
            "bootstrap token:  abcdef.<redacted>\n"
            "CA cert hashes:   " +
                kPin +
                "\n"
                "control plane:    no\n");
  ExpectNoSecrets();
}

TEST_F(TokenInspectTest, ControlPlaneTokenAsJson) {
  ASSERT_EQ(Run({"token", "inspect", Make(kKey), "-o", "json"}), 0) << status_.message();
  EXPECT_EQ(
      cmd_out_.str(),
      "{\n"
      "    \"formatVersion\": 1,\n"
      "    \"endpoints\": [\n        \"10.123.0.1:6443\",\n        \"[fd00::1]:6443\"\n    ],\n"
      "    \"tokenID\": \"abcdef\",\n"
      "    \"bootstrapToken\": \"abcdef.<redacted>\",\n"
      "    \"caCertHashes\": [\n        \"" +
          kPin +
          "\"\n    ],\n"
          "    \"controlPlane\": true,\n"
          "    \"certificateKey\": \"<redacted>\"\n"
          "}\n");
  ExpectNoSecrets();
}

TEST_F(TokenInspectTest, WorkerTokenAsYaml) {
  ASSERT_EQ(Run({"token", "inspect", "-o", "yaml", Make("")}), 0) << status_.message();
  auto doc = util::yaml::Read(cmd_out_.str());
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ((*doc)["formatVersion"], 1);
  EXPECT_EQ((*doc)["tokenID"], "abcdef");
  EXPECT_EQ((*doc)["controlPlane"], false);
  EXPECT_FALSE(doc->contains("certificateKey"));
  EXPECT_EQ((*doc)["endpoints"][1], "[fd00::1]:6443");
  ExpectNoSecrets();
}

TEST_F(TokenInspectTest, InvalidTokensAreRefusedWithoutEcho) {
  const std::string good = Make(kKey);
  std::string typo = good;
  typo[20] = typo[20] == 'x' ? 'y' : 'x';
  for (const std::string& bad : {good.substr(0, good.size() - 5), typo}) {
    EXPECT_EQ(Run({"token", "inspect", bad}), 1);
    EXPECT_EQ(status_.code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(status_.message(), HasSubstr("invalid join token: "));
    EXPECT_THAT(status_.message(), Not(HasSubstr(bad.substr(4, 12))));
    EXPECT_EQ(cmd_out_.str(), "");
  }
  EXPECT_EQ(Run({"token", "inspect", "abcdef.0123456789abcdef"}), 1);
  EXPECT_EQ(status_.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status_.message(), HasSubstr("a bare bootstrap token"));
  ExpectNoSecrets();
}

TEST_F(TokenInspectTest, ExactlyOneArgument) {
  EXPECT_EQ(Run({"token", "inspect"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("exactly one join token (got 0 arguments)"));
  const std::string token = Make("");
  EXPECT_EQ(Run({"token", "inspect", token, token}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("(got 2 arguments)"));
  EXPECT_EQ(Run({"token", "inspect", token, "-o", "xml"}), 3);
  ExpectNoSecrets();
}

}  // namespace
}  // namespace kkadm::cmd
