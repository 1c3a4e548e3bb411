// The plain-scalar forms against the regular expressions the three YAML readers used before.
#include "app/util/yaml_scalar_syntax.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::util {
namespace {

using kkadm::testing::OracleInputs;
using kkadm::testing::RegexDisagreements;
using ::testing::IsEmpty;

constexpr std::string_view kNumberAlphabet = "0179_.eE+-xob:aF \n";

std::vector<std::string> NumberInputs() {
  return OracleInputs(
      {"0",           "-0",  "+12_345", "0b1010",       "0b",     "0x1F_ff", "0x",   "0o17",
       "0o",          "017", "08",      "1_000",        "_1",     "1_",      "3.14", "-.5",
       ".",           "+.",  "1.",      "1._5",         "1.5e10", "1e5",     "1E+5", "1e",
       "1e-",         ".e1", "-.e1",    "1_0.0_1e-1_0", "1:30",   "-1:30.5", "1:3",  "1:60",
       "1:59:59.9_9", "1:",  "1::2",    "0x1.8p1",      ".5E3",   "1 ",      "1\n"},
      kNumberAlphabet, 4);
}

std::vector<std::string> InfNanInputs() {
  return OracleInputs({".inf", "-.Inf", "+.INF", ".nan", ".NaN", ".NAN", "-.nan", "+.NaN", ".iNf",
                       "inf", ".infinity", ". inf", ".inf\n"},
                      ".infINFNaA+-", 5);
}

TEST(YamlScalarSyntaxTest, Yaml11IntMatchesGoYamlV2Pattern) {
  EXPECT_THAT(RegexDisagreements("[-+]?(0b[01_]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*)",
                                 NumberInputs(), IsYaml11Int),
              IsEmpty());
}

TEST(YamlScalarSyntaxTest, Yaml11FloatMatchesGoYamlV2Pattern) {
  const std::string pattern =
      "[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?|[-+]?\\.(inf|Inf|INF)|"
      "\\.(nan|NaN|NAN)|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?";
  EXPECT_THAT(RegexDisagreements(pattern, NumberInputs(), IsYaml11Float), IsEmpty());
  EXPECT_THAT(RegexDisagreements(pattern, InfNanInputs(), IsYaml11Float), IsEmpty());
}

TEST(YamlScalarSyntaxTest, DecimalFloatMatchesBothPatterns) {
  EXPECT_THAT(
      RegexDisagreements(
          "[-+]?(\\.[0-9]+|[0-9][0-9_]*(\\.[0-9_]*)?)([eE][-+]?[0-9]+)?", NumberInputs(),
          [](const std::string& s) { return IsYamlDecimalFloat(s, Underscores::kAllowed); }),
      IsEmpty());
  EXPECT_THAT(
      RegexDisagreements(
          "[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?", NumberInputs(),
          [](const std::string& s) { return IsYamlDecimalFloat(s, Underscores::kRejected); }),
      IsEmpty());
}

TEST(YamlScalarSyntaxTest, InfOrNanMatchesPattern) {
  const std::string pattern = "[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)";
  EXPECT_THAT(RegexDisagreements(pattern, InfNanInputs(), IsYamlInfOrNan), IsEmpty());
  EXPECT_THAT(RegexDisagreements(pattern, NumberInputs(), IsYamlInfOrNan), IsEmpty());
}

TEST(YamlScalarSyntaxTest, ConfigurationFormsMatchTheirPatterns) {
  const std::vector<std::string> inputs = NumberInputs();
  EXPECT_THAT(RegexDisagreements("[-+]?(0|[1-9][0-9_]*)", inputs, IsYamlDecimalInt), IsEmpty());
  EXPECT_THAT(RegexDisagreements("0x[0-9a-fA-F_]+", inputs, IsYamlHexInt), IsEmpty());
  EXPECT_THAT(RegexDisagreements("[-+]?([0-9][0-9_]*)?\\.[0-9]*([eE][-+]?[0-9]+)?|"
                                 "[-+]?[0-9]+[eE][-+]?[0-9]+",
                                 inputs, IsYamlPointOrExponentFloat),
              IsEmpty());
}

TEST(YamlScalarSyntaxTest, TimestampMatchesPattern) {
  const auto inputs =
      OracleInputs({"2024-01-02", "2024-1-2", "2024-01-02T10:00:00Z", "2024-01-02t1",
                    "2024-01-02 10:00", "2024-01-02x", "2024-01-002", "202-01-02", "20245-01-02",
                    "2024-01-02T\n", "2024-01-02 \r", "2024--02", "2024-01-"},
                   "01-Tt :\nx", 4);
  EXPECT_THAT(
      RegexDisagreements("\\d{4}-\\d{1,2}-\\d{1,2}([Tt ].*)?", inputs, LooksLikeYamlTimestamp),
      IsEmpty());
}

}  // namespace
}  // namespace kkadm::util
