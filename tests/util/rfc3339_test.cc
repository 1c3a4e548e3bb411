// RFC 3339 parsing against the regular expressions of the two parsers it replaced
// (configuration files and bootstrap token Secrets).
#include "app/util/rfc3339.h"

#include <gtest/gtest.h>

#include <ctime>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::util {
namespace {

using Time = std::chrono::system_clock::time_point;

// The time a match of either pattern names: groups 1-6 the fields, 9-11 the offset's sign,
// hours and minutes (unmatched for "Z").
Time TimeOfMatch(const std::smatch& m) {
  std::tm tm{};
  tm.tm_year = std::stoi(m[1]) - 1900;
  tm.tm_mon = std::stoi(m[2]) - 1;
  tm.tm_mday = std::stoi(m[3]);
  tm.tm_hour = std::stoi(m[4]);
  tm.tm_min = std::stoi(m[5]);
  tm.tm_sec = std::stoi(m[6]);
  long offset = 0;
  if (m[9].matched) {
    offset = (std::stol(m[10]) * 3600 + std::stol(m[11]) * 60) * (m[9] == "-" ? -1 : 1);
  }
  return TimeFromSeconds(timegm(&tm) - offset);
}

// The patterns of config/decode_node.cc ("t"/"z" accepted) and phases/bootstraptoken/token.cc.
std::optional<Time> Oracle(const std::string& text, Rfc3339Case letters) {
  static const std::regex kAnyCase(
      R"((\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2})))");
  static const std::regex kUpperCase(
      R"(^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|([+-])(\d{2}):(\d{2}))$)");
  std::smatch m;
  if (!std::regex_match(text, m, letters == Rfc3339Case::kAny ? kAnyCase : kUpperCase)) {
    return std::nullopt;
  }
  return TimeOfMatch(m);
}

std::vector<std::string> Inputs() {
  return kkadm::testing::OracleInputs(
      {"2006-01-02T15:04:05Z", "2006-01-02t15:04:05z", "2006-01-02T15:04:05.123456789Z",
       "2006-01-02T15:04:05.Z", "2006-01-02T15:04:05+07:00", "2006-01-02T15:04:05-07:30",
       "2006-01-02T15:04:05.5-00:00", "2006-01-02T15:04:05+0700", "2006-01-02T15:04:05",
       "2006-01-02 15:04:05Z", "2006-1-02T15:04:05Z", "2024-13-45T25:61:61Z",
       "0000-00-00T00:00:00Z", "9999-12-31T23:59:59Z", "2006-01-02T15:04:05Z\n",
       "2006-01-02T15:04:05ZZ", "12006-01-02T15:04:05Z"},
      "0129-:T.tZz+ \n", 3);
}

TEST(Rfc3339Test, AnyCaseAgreesWithTheConfigurationParser) {
  for (const std::string& text : Inputs()) {
    EXPECT_EQ(ParseRfc3339(text, Rfc3339Case::kAny), Oracle(text, Rfc3339Case::kAny)) << text;
  }
}

TEST(Rfc3339Test, UpperCaseAgreesWithTheSecretParser) {
  for (const std::string& text : Inputs()) {
    EXPECT_EQ(ParseRfc3339(text, Rfc3339Case::kUpper), Oracle(text, Rfc3339Case::kUpper)) << text;
  }
}

// Years system_clock cannot hold saturate instead of overflowing (UBSan: signed overflow).
TEST(Rfc3339Test, YearsOutsideTheClockSaturate) {
  using Clock = std::chrono::system_clock;
  EXPECT_EQ(ParseRfc3339("0001-01-01T00:00:00Z", Rfc3339Case::kUpper), Clock::time_point::min());
  EXPECT_EQ(ParseRfc3339("9999-12-31T23:59:59Z", Rfc3339Case::kUpper), Clock::time_point::max());
  EXPECT_EQ(ParseRfc3339("2262-04-12T00:00:00Z", Rfc3339Case::kUpper), Clock::time_point::max());
  EXPECT_EQ(ParseRfc3339("2000-01-01T00:00:00Z", Rfc3339Case::kUpper),
            Clock::time_point(std::chrono::seconds(946684800)));
}

TEST(Rfc3339Test, Offsets) {
  const auto utc = ParseRfc3339("2006-01-02T15:04:05Z", Rfc3339Case::kUpper);
  ASSERT_TRUE(utc.has_value());
  EXPECT_EQ(ParseRfc3339("2006-01-02T17:34:05+02:30", Rfc3339Case::kUpper), utc);
  EXPECT_EQ(ParseRfc3339("2006-01-02T08:04:05.999-07:00", Rfc3339Case::kUpper), utc);
  EXPECT_EQ(std::chrono::system_clock::to_time_t(*utc), 1136214245);
}

// Go's t.UTC().Format(time.RFC3339), the form of Secrets' expirations and of `expires` fields:
// UTC, "Z", no fraction (it is dropped, not rounded).
TEST(Rfc3339Test, FormatsAsGoInUtc) {
  const auto t = std::chrono::system_clock::from_time_t(1136214245);
  EXPECT_EQ(FormatRfc3339(t), "2006-01-02T15:04:05Z");
  EXPECT_EQ(FormatRfc3339(t + std::chrono::milliseconds(999)), "2006-01-02T15:04:05Z");
  EXPECT_EQ(FormatRfc3339(std::chrono::system_clock::from_time_t(0)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(ParseRfc3339(FormatRfc3339(t), Rfc3339Case::kUpper), t);
}

}  // namespace
}  // namespace kkadm::util
