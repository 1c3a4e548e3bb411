// RealTerminal: the process's standard input.
#pragma once

#include "app/util/terminal.h"

namespace kkadm::util {

class RealTerminal final : public Terminal {
 public:
  bool StdinIsTerminal() const override;
  Result<std::string> ReadLine() override;
};

}  // namespace kkadm::util
