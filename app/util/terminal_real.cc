// RealTerminal: isatty(0) and std::getline on std::cin.
#include "app/util/terminal_real.h"

#include <unistd.h>

#include <iostream>

namespace kkadm::util {

bool RealTerminal::StdinIsTerminal() const { return ::isatty(STDIN_FILENO) == 1; }

Result<std::string> RealTerminal::ReadLine() {
  std::string line;
  if (!std::getline(std::cin, line)) return NotFound("end of input");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

}  // namespace kkadm::util
