// Go duration parse/format.
#include "app/util/duration.h"

#include <gtest/gtest.h>

namespace kkadm::util {
namespace {

using std::chrono::milliseconds;

TEST(DurationTest, ParsesGoSyntax) {
  struct Case { const char* text; long long ms; };
  for (const Case& c : {Case{"24h", 86400000}, Case{"24h0m0s", 86400000}, Case{"4m", 240000},
                        Case{"500ms", 500}, Case{"1h30m", 5400000}, Case{"1.5s", 1500}, Case{"0", 0},
                        Case{"-1m", -60000}, Case{"90s", 90000}, Case{"2000us", 2}, Case{"0s", 0}}) {
    auto d = ParseDuration(c.text);
    ASSERT_TRUE(d.has_value()) << c.text << ": " << d.error().message();
    EXPECT_EQ(d->count(), c.ms) << c.text;
  }
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
