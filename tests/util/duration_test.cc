// Go duration parse/format.
#include "app/util/duration.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kkadm::util {
namespace {

using std::chrono::milliseconds;

// A duration text and the milliseconds it stands for.
struct GoCase {
  const char* text;
  long long ms;
};

void ExpectParsesAs(const std::vector<GoCase>& cases) {
  for (const GoCase& c : cases) {
    auto d = ParseDuration(c.text);
    ASSERT_TRUE(d.has_value()) << c.text << ": " << d.error().message();
    EXPECT_EQ(d->count(), c.ms) << c.text;
  }
}

TEST(DurationTest, ParsesGoSyntax) {
  ExpectParsesAs({{"24h", 86400000},
                  {"24h0m0s", 86400000},
                  {"4m", 240000},
                  {"500ms", 500},
                  {"1h30m", 5400000},
                  {"1.5s", 1500},
                  {"0", 0},
                  {"-1m", -60000},
                  {"90s", 90000},
                  {"2000us", 2},
                  {"0s", 0}});
}

TEST(DurationTest, RejectsBadText) {
  for (const char* text : {"", "abc", "10", "1x", "h", "1h-2m", "."}) {
    auto d = ParseDuration(text);
    EXPECT_FALSE(d.has_value()) << text;
    if (!d.has_value()) {
      EXPECT_EQ(d.error().code(), StatusCode::kInvalidArgument);
    }
  }
  EXPECT_EQ(ParseDuration("10").error().message(), "time: missing unit in duration \"10\"");
  EXPECT_EQ(ParseDuration("1x").error().message(), "time: unknown unit \"x\" in duration \"1x\"");
}

// Go's own table (time_test.go, parseDurationTests), at kkadm's millisecond precision: signs,
// fractions and units.
TEST(DurationTest, AgreesWithGoParseDuration) {
  ExpectParsesAs({
      {"0", 0},
      {"5s", 5000},
      {"30s", 30000},
      {"1478s", 1478000},
      {"-5s", -5000},
      {"+5s", 5000},
      {"-0", 0},
      {"+0", 0},
      {"5.0s", 5000},
      {"5.6s", 5600},
      {"5.s", 5000},
      {".5s", 500},
      {"1.0s", 1000},
      {"1.00s", 1000},
      {"1.004s", 1004},
      {"1.0040s", 1004},
      {"100.00100s", 100001},
      {"13ms", 13},
      {"14s", 14000},
      {"15m", 900000},
      {"16h", 57600000},
      {"3h30m", 12600000},
      {"10.5s4m", 250500},
      {"-2m3.4s", -123400},
      {"1h2m3s4ms5us6ns", 3723004},
      {"39h9m14.425s", 140954425},
      {"52763797000ns", 52763},
  });
}

// The rest of Go's table: long fractions, and the largest durations int64 nanoseconds hold.
TEST(DurationTest, AgreesWithGoAtPrecisionAndRangeLimits) {
  ExpectParsesAs({
      {"0.3333333333333333333h", 1200000},
      {"9007199254740993ns", 9007199254},
      {"9223372036854775807ns", 9223372036854},
      {"9223372036854775.807us", 9223372036854},
      {"9223372036s854ms775us807ns", 9223372036854},
      {"-9223372036854775808ns", -9223372036854},
      {"-9223372036854775.808us", -9223372036854},
      {"-9223372036s854ms775us808ns", -9223372036854},
      {"-2562047h47m16.854775808s", -9223372036854},
      {"0.100000000000000000000h", 360000},
      {"0.830103483285477580700h", 2988372},
      {"2562047h", 2562047LL * 3600000},
  });
}

// Go's parseDurationErrorTests: text that is no duration.
TEST(DurationTest, RefusesWhatGoRefuses) {
  for (const std::string& text :
       std::vector<std::string>{"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "\x85\x85",
                                "\xff"
                                "ff",
                                "hello \xff"
                                "ff world",
                                "\xEF\xBF\xBD"}) {
    auto d = ParseDuration(text);
    EXPECT_FALSE(d.has_value()) << text;
  }
  EXPECT_EQ(ParseDuration("3").error().message(), "time: missing unit in duration \"3\"");
  EXPECT_EQ(ParseDuration("-.").error().message(), "time: invalid duration \"-.\"");
}

// Go's overflow cases, and what did not fit the old token parser.
TEST(DurationTest, RefusesWhatOverflowsInt64Nanoseconds) {
  for (const std::string& text : std::vector<std::string>{
           "9223372036854775810ns", "9223372036854775808ns", "-9223372036854775809ns",
           "9223372036854776us", "3000000h", "9223372036854775.808us", "9223372036854ms775us808ns",
           "2562048h", "99999999999999999999h", std::string(400, '9') + "h"}) {
    auto d = ParseDuration(text);
    EXPECT_FALSE(d.has_value()) << text;
  }
  EXPECT_EQ(ParseDuration("3000000h").error().message(), "time: invalid duration \"3000000h\"");
}

// kubeadm gives a token an expiration for any TTL > 0 and none for 0: a duration below a
// millisecond must not become 0 (`init --token-ttl 1us` wrote a token that never expired).
TEST(DurationTest, BelowAMillisecondKeepsItsSign) {
  for (const char* text : {"1ns", "10ns", "1us", "11us", "12\xC2\xB5s", "12\xCE\xBCs", "0.5ms"}) {
    auto d = ParseDuration(text);
    ASSERT_TRUE(d.has_value()) << text;
    EXPECT_EQ(d->count(), 1) << text;
    auto negative = ParseDuration(std::string("-") + text);
    ASSERT_TRUE(negative.has_value()) << text;
    EXPECT_EQ(negative->count(), -1) << text;
  }
  for (const char* text : {"0s", "0ms", "0.000us", "-0ns"})
    EXPECT_EQ(ParseDuration(text)->count(), 0);
  EXPECT_EQ(ParseDuration("1.0009ms")->count(), 1);  // above a millisecond: truncated
}

TEST(DurationTest, ShortHumanDurationAsApimachinery) {
  using std::chrono::seconds;
  EXPECT_EQ(ShortHumanDuration(seconds(-2)), "<invalid>");
  EXPECT_EQ(ShortHumanDuration(milliseconds(-1999)), "0s");
  EXPECT_EQ(ShortHumanDuration(seconds(59)), "59s");
  EXPECT_EQ(ShortHumanDuration(seconds(3599)), "59m");
  EXPECT_EQ(ShortHumanDuration(seconds(86399)), "23h");
  EXPECT_EQ(ShortHumanDuration(std::chrono::hours(24 * 364)), "364d");
  EXPECT_EQ(ShortHumanDuration(std::chrono::hours(24 * 365 * 2 + 1)), "2y");
}

TEST(DurationTest, FormatsLikeGo) {
  EXPECT_EQ(FormatDuration(std::chrono::hours(24)), "24h0m0s");
  EXPECT_EQ(FormatDuration(std::chrono::minutes(4)), "4m0s");
  EXPECT_EQ(FormatDuration(milliseconds(500)), "500ms");
  EXPECT_EQ(FormatDuration(milliseconds(5400000)), "1h30m0s");
  EXPECT_EQ(FormatDuration(milliseconds(1500)), "1.5s");
  EXPECT_EQ(FormatDuration(milliseconds(61250)), "1m1.25s");
  EXPECT_EQ(FormatDuration(milliseconds(0)), "0s");
  EXPECT_EQ(FormatDuration(milliseconds(-60000)), "-1m0s");
  EXPECT_EQ(FormatDuration(std::chrono::hours(87600)), "87600h0m0s");
}

TEST(DurationTest, RoundTrips) {
  for (long long ms : {1LL, 999LL, 1000LL, 3601001LL, 86400000LL}) {
    auto d = ParseDuration(FormatDuration(milliseconds(ms)));
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->count(), ms);
  }
}

}  // namespace
}  // namespace kkadm::util
