// The one plain-scalar rule of util::yaml: what a plain scalar means (go-yaml v2's resolve.go) and
// the number and base-60 forms against the regular expressions go-yaml states them with.
#include "app/util/yaml/scalar.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::util::yaml {
namespace {

using kkadm::testing::OracleInputs;
using kkadm::testing::RegexDisagreements;
using ::testing::IsEmpty;
using Kind = PlainValue::Kind;

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

TEST(YamlScalarTest, YamlStyleFloatMatchesGoYamlV2Pattern) {
  EXPECT_THAT(RegexDisagreements("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?",
                                 NumberInputs(), IsYamlStyleFloat),
              IsEmpty());
}

TEST(YamlScalarTest, Base60FloatMatchesGoYamlV2Pattern) {
  EXPECT_THAT(RegexDisagreements("[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?", NumberInputs(),
                                 IsBase60Float),
              IsEmpty());
}

Kind KindOf(std::string_view s) { return ResolvePlain(s).kind; }

TEST(YamlScalarTest, ResolvesWordsNumbersAndTimestamps) {
  for (const char* s : {"y", "Yes", "ON", "true"}) EXPECT_TRUE(ResolvePlain(s).boolean) << s;
  for (const char* s : {"n", "No", "off", "FALSE"}) EXPECT_EQ(KindOf(s), Kind::kBool) << s;
  for (const char* s : {"", "~", "null", "NULL"}) EXPECT_EQ(KindOf(s), Kind::kNull) << s;
  for (const char* s : {".inf", "-.Inf", "+.INF", ".nan"}) {
    EXPECT_EQ(KindOf(s), Kind::kNonFinite) << s;
  }
  EXPECT_EQ(ResolvePlain("0755").integer, 493);
  EXPECT_EQ(ResolvePlain("0o17").integer, 15);
  EXPECT_EQ(ResolvePlain("0B101").integer, 5);
  EXPECT_EQ(ResolvePlain("-0x10").integer, -16);
  EXPECT_EQ(ResolvePlain("1_000").integer, 1000);
  EXPECT_EQ(ResolvePlain("-9223372036854775808").integer, INT64_MIN);
  EXPECT_EQ(ResolvePlain("18446744073709551615").unsigned_integer, UINT64_MAX);
  EXPECT_EQ(KindOf("18446744073709551616"), Kind::kFloat);
  EXPECT_EQ(KindOf("+9223372036854775808"), Kind::kFloat);  // ParseUint takes no sign
  EXPECT_EQ(ResolvePlain("08").real, 8.0);
  EXPECT_EQ(ResolvePlain(".5_5").real, 0.55);
  EXPECT_EQ(ResolvePlain("1_0.5").real, 10.5);
  for (const char* s : {"1e400", "0xFFFFFFFFFFFFFFFFFF", "._5", "1.2.3", "<<", "0x", "+", "-x",
                        "12abc", "1:30", "inf", "Yes please"}) {
    EXPECT_EQ(KindOf(s), Kind::kString) << s;
  }
  EXPECT_EQ(KindOf("2024-01-02"), Kind::kTimestamp);
}

TEST(YamlScalarTest, TimestampsAreWhatGoTimeParseTakes) {
  for (const char* s :
       {"2024-01-02", "2024-1-2", "2024-02-29", "2024-01-02T10:00:00Z", "2024-01-02t1:2:3Z",
        "2024-01-02T10:00:00.123456789123Z", "2024-01-02T10:00:00,5Z", "2024-01-02T10:00:00+01:00",
        "2024-01-02T10:00:00-24:60", "2024-01-02 10:00:00", "2024-01-02   10:00:00.5"}) {
    EXPECT_TRUE(IsTimestamp(s)) << s;
  }
  for (const char* s :
       {"2024-13-01", "2023-02-29", "2024-04-31", "2024-01-00", "2024-1-123", "202-01-02",
        "+2024-01-02", "2024-01-02 ", "2024-01-02x", "2024-01-02T10:00:00", "2024-01-02T24:00:00Z",
        "2024-01-02T10:60:00Z", "2024-01-02T10:00:00.Z", "2024-01-02T10:00:00+25:00",
        "2024-01-02T10:00:00+0100", "2024-01-02 10:00:00Z", "2024-01-0210:00:00"}) {
    EXPECT_FALSE(IsTimestamp(s)) << s;
  }
}

TEST(YamlScalarTest, ReadsAsNonStringCoversBase60) {
  EXPECT_TRUE(ReadsAsNonString("1:30"));
  EXPECT_TRUE(ReadsAsNonString("2024-01-02"));
  EXPECT_TRUE(ReadsAsNonString("y"));
  EXPECT_FALSE(ReadsAsNonString("1:60"));
  EXPECT_FALSE(ReadsAsNonString("v1.32.0"));
}

TEST(YamlScalarTest, ScalarStylesAndLiteralIndentation) {
  EXPECT_EQ(ScalarText("plain text", ScalarPlace::kValue, 0), "plain text");
  EXPECT_EQ(ScalarText(" lead", ScalarPlace::kValue, 0), "' lead'");
  EXPECT_EQ(ScalarText("a\n b", ScalarPlace::kValue, 0), "|-\n  a\n   b");
  EXPECT_EQ(ScalarText("a\nb\n", ScalarPlace::kValue, 4), "|\n      a\n      b");
  EXPECT_EQ(ScalarText("a\nb\n", ScalarPlace::kKey, 4), "\"a\\nb\\n\"");
  EXPECT_EQ(ScalarText("trail \nx", ScalarPlace::kValue, 0), "\"trail \\nx\"");
  EXPECT_EQ(ScalarText("\n", ScalarPlace::kValue, 0), "|2+\n");
}

}  // namespace
}  // namespace kkadm::util::yaml
