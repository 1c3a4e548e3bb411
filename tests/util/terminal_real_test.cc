// RealTerminal reads lines from std::cin (swapped for a string here): line endings are dropped,
// end of input is NotFound.
#include "app/util/terminal_real.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

namespace kkadm::util {
namespace {

class StdinFrom {
 public:
  explicit StdinFrom(const std::string& text) : in_(text), old_(std::cin.rdbuf(in_.rdbuf())) {}
  ~StdinFrom() {
    std::cin.rdbuf(old_);
    std::cin.clear();
  }

 private:
  std::istringstream in_;
  std::streambuf* old_;
};

TEST(RealTerminalTest, ReadsLinesUntilTheEnd) {
  StdinFrom stdin_text("y\r\nno\nlast");
  RealTerminal terminal;
  EXPECT_EQ(*terminal.ReadLine(), "y");
  EXPECT_EQ(*terminal.ReadLine(), "no");
  EXPECT_EQ(*terminal.ReadLine(), "last");
  auto end = terminal.ReadLine();
  ASSERT_FALSE(end);
  EXPECT_EQ(end.error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace kkadm::util
