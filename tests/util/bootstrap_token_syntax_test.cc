// Bootstrap token and group syntax against the regular expressions kkadm used before.
#include "app/util/bootstrap_token_syntax.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::util {
namespace {

using kkadm::testing::OracleInputs;
using kkadm::testing::RegexDisagreements;
using ::testing::IsEmpty;

constexpr std::string_view kTokenAlphabet = "az09.A-_:\n";

std::vector<std::string> TokenInputs() {
  return OracleInputs(
      {"abcdef.0123456789abcdef", "zzzzzz.zzzzzzzzzzzzzzzz", "000000.0000000000000000", "abcdef",
       "a1b2c3", "abcdefg", "ABCDEF.0123456789abcdef", "abcdef.0123456789abcdeF",
       "abcdef.0123456789abcde", "abcdef.0123456789abcdef0", "abcdef:0123456789abcdef",
       "abcdef.0123456789abcdef\n", ".", ""},
      kTokenAlphabet, 4);
}

TEST(BootstrapTokenSyntaxTest, GeneratedTokensMatchTheFormatAndDiffer) {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    auto token = GenerateBootstrapToken();
    ASSERT_TRUE(token.has_value());
    EXPECT_TRUE(IsBootstrapToken(*token)) << *token;
    seen.insert(*token);
  }
  EXPECT_EQ(seen.size(), 50u);
}

TEST(BootstrapTokenSyntaxTest, IsBootstrapTokenMatchesPattern) {
  EXPECT_THAT(RegexDisagreements("^[a-z0-9]{6}\\.[a-z0-9]{16}$", TokenInputs(), IsBootstrapToken),
              IsEmpty());
}

TEST(BootstrapTokenSyntaxTest, SplitBootstrapTokenReturnsThePatternsGroups) {
  const std::regex oracle("^([a-z0-9]{6})\\.([a-z0-9]{16})$");
  for (const std::string& token : TokenInputs()) {
    std::smatch m;
    const bool matches = std::regex_match(token, m, oracle);
    const auto parts = SplitBootstrapToken(token);
    ASSERT_EQ(parts.has_value(), matches) << token;
    if (!matches) continue;
    EXPECT_EQ(parts->id, m[1]);
    EXPECT_EQ(parts->secret, m[2]);
  }
}

TEST(BootstrapTokenSyntaxTest, IsBootstrapTokenIdMatchesPattern) {
  EXPECT_THAT(RegexDisagreements("^[a-z0-9]{6}$",
                                 OracleInputs({"abcdef", "a1b2c3", "abcde", "abcdefg", "abcdeF",
                                               "abc.ef", "abcdef\n"},
                                              kTokenAlphabet, 4),
                                 IsBootstrapTokenId),
              IsEmpty());
}

TEST(BootstrapTokenSyntaxTest, IsBootstrapGroupNameMatchesPattern) {
  const std::string prefix = "system:bootstrappers:";
  const auto inputs = OracleInputs(
      {prefix + "kubeadm:default-node-token", prefix + "a", prefix, prefix + "a-",
       prefix + "a:", prefix + ":a", prefix + "-a", prefix + "A",
       prefix + std::string(255, 'x') + "0", prefix + std::string(256, 'x') + "0",
       prefix + std::string(255, '-') + "z", prefix + std::string(256, ':') + "z",
       "system:bootstrapper:a", "System:bootstrappers:a", prefix + "a\n", "x" + prefix + "a"},
      "az09:-_.A\n", 3, 4000);
  EXPECT_THAT(RegexDisagreements("^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$", inputs,
                                 IsBootstrapGroupName),
              IsEmpty());
}

}  // namespace
}  // namespace kkadm::util
