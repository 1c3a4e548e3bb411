// RealProcessRunner: the ProcessRunner of this machine (fork, execve, poll, kill of the group).
#pragma once

#include "app/util/process.h"

namespace kkadm::util {

class RealProcessRunner final : public ProcessRunner {
 public:
  Result<ProcessOutcome> Run(const ProcessRequest& request) override;
};

}  // namespace kkadm::util
