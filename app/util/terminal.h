// Terminal: the user at the keyboard, for the one question kkadm asks (`kkadm reset`'s
// confirmation). Injected so tests need no tty.
#pragma once

#include <string>

#include "app/util/status.h"

namespace kkadm::util {

class Terminal {
 public:
  virtual ~Terminal() = default;
  // True when standard input is a terminal, i.e. someone can answer. Under cloud-init, systemd or
  // a pipe it is not, and a question would wait forever or read garbage.
  virtual bool StdinIsTerminal() const = 0;
  // One line from standard input, without its line ending; NotFound at end of input.
  virtual Result<std::string> ReadLine() = 0;
};

}  // namespace kkadm::util
