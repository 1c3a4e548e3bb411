// util::EscapeNonPrintable and Quote: outside text made safe for a one-line message.
#include "app/util/printable.h"

#include <gtest/gtest.h>

namespace kkadm::util {
namespace {

TEST(PrintableTest, KeepsPrintableTextAndEscapesTheRest) {
  EXPECT_EQ(EscapeNonPrintable("node-1 \xc3\xa9t\xc3\xa9 \xe2\x9c\x93"),
            "node-1 \xc3\xa9t\xc3\xa9 \xe2\x9c\x93");
  EXPECT_EQ(EscapeNonPrintable("a\nb\tc\r"), "a\\nb\\tc\\r");
  EXPECT_EQ(EscapeNonPrintable("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
  EXPECT_EQ(EscapeNonPrintable("\xc2\x9b"
                               "2J"),
            "\\u009b2J");  // C1 CSI
  EXPECT_EQ(EscapeNonPrintable("abc\xe2\x80\xae"
                               "fed"),
            "abc\\u202efed");  // right-to-left
  EXPECT_EQ(EscapeNonPrintable("\xff\xc3(\xed\xa0\x80\xc0\xaf"),
            "\\xff\\xc3(\\xed\\xa0\\x80\\xc0\\xaf");  // not UTF-8, a surrogate, overlong
  EXPECT_EQ(EscapeNonPrintable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(EscapeNonPrintable("line 1\nline 2\x1b", true), "line 1\nline 2\\x1b");
}

TEST(PrintableTest, QuoteIsGosPercentQ) {
  EXPECT_EQ(Quote("abc"), "\"abc\"");
  EXPECT_EQ(Quote("say \"hi\"\\\n"), "\"say \\\"hi\\\"\\\\\\n\"");
  EXPECT_EQ(Quote(""), "\"\"");
}

TEST(PrintableTest, Utf8SequenceLength) {
  EXPECT_EQ(Utf8SequenceLength("a"), 1u);
  EXPECT_EQ(Utf8SequenceLength("\xc3\xa9"), 2u);
  EXPECT_EQ(Utf8SequenceLength("\xe2\x9c\x93"), 3u);
  EXPECT_EQ(Utf8SequenceLength("\xf0\x9f\x98\x80"), 4u);
  EXPECT_EQ(Utf8SequenceLength("\xf4\x90\x80\x80"), 0u);  // past U+10FFFF
  EXPECT_EQ(Utf8SequenceLength("\xe2\x9c"), 0u);          // truncated
  EXPECT_EQ(Utf8SequenceLength(""), 0u);
}

}  // namespace
}  // namespace kkadm::util
