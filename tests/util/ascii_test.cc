#include "app/util/ascii.h"

#include <gtest/gtest.h>

namespace kkadm::util {
namespace {

TEST(AsciiTest, ClassesAreAsciiOnly) {
  for (int i = 0; i < 256; ++i) {
    const char c = static_cast<char>(i);
    EXPECT_EQ(IsAsciiDigit(c), i >= '0' && i <= '9') << i;
    EXPECT_EQ(IsAsciiAlnum(c),
              (i >= '0' && i <= '9') || (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z'))
        << i;
    EXPECT_EQ(IsHexDigit(c),
              (i >= '0' && i <= '9') || (i >= 'a' && i <= 'f') || (i >= 'A' && i <= 'F'))
        << i;
    EXPECT_EQ(IsNotLineBreak(c), i != '\n' && i != '\r') << i;
  }
}

TEST(AsciiTest, ScannerTakesAllOrNothing) {
  Scanner in("v1.32x");
  EXPECT_FALSE(in.Consume("vv"));
  EXPECT_TRUE(in.Consume('v'));
  EXPECT_EQ(in.Fixed(3, IsAsciiDigit), "");
  EXPECT_EQ(in.rest(), "1.32x");
  EXPECT_EQ(in.Run(IsAsciiAlpha, IsAsciiDigit), "");
  EXPECT_EQ(in.Span(IsAsciiDigit), "1");
  EXPECT_FALSE(in.ConsumeAnyOf("-+"));
  EXPECT_TRUE(in.ConsumeAnyOf("+."));
  EXPECT_EQ(in.Run(IsAsciiDigit, IsAsciiAlpha), "3");
  EXPECT_EQ(in.Fixed(1, IsAsciiDigit), "2");
  EXPECT_EQ(in.Span(IsAsciiDigit), "");
  EXPECT_FALSE(in.AtEnd());
  EXPECT_TRUE(in.Consume("x"));
  EXPECT_TRUE(in.AtEnd());
  EXPECT_FALSE(in.Consume('x'));
}

TEST(AsciiTest, DigitsToInt) {
  EXPECT_EQ(DigitsToInt("0"), 0);
  EXPECT_EQ(DigitsToInt("0042"), 42);
  EXPECT_EQ(DigitsToInt("2147483647"), 2147483647);
  EXPECT_EQ(DigitsToInt("2147483648"), std::nullopt);
  EXPECT_EQ(DigitsToInt(""), std::nullopt);
  EXPECT_EQ(DigitsToInt("-1"), std::nullopt);
  EXPECT_EQ(DigitsToInt("+1"), std::nullopt);
  EXPECT_EQ(DigitsToInt("1x"), std::nullopt);
}

}  // namespace
}  // namespace kkadm::util
