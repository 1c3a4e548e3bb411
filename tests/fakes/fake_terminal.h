// FakeTerminal: a Terminal whose tty-ness and typed lines a test sets.
#pragma once

#include <deque>
#include <string>

#include "app/util/terminal.h"

namespace kkadm::testing {

class FakeTerminal final : public util::Terminal {
 public:
  bool is_terminal = true;
  std::deque<std::string> lines;  // answered in order; end of input after the last
  int reads = 0;

  bool StdinIsTerminal() const override { return is_terminal; }
  Result<std::string> ReadLine() override {
    ++reads;
    if (lines.empty()) return NotFound("end of input");
    std::string line = lines.front();
    lines.pop_front();
    return line;
  }
};

}  // namespace kkadm::testing
