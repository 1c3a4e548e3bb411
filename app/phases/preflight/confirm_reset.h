// `kkadm reset`'s confirmation question.
#pragma once

#include "app/util/printer.h"
#include "app/util/status.h"
#include "app/util/terminal.h"

namespace kkadm::phases::preflight {

// Prints kubeadm's warning, asks `[reset] Are you sure you want to proceed? [y/N]: ` and reads one
// line from standard input, whatever it is (kubeadm's: `echo y | kkadm reset` confirms). "y" or "Y"
// (blanks around it ignored) goes on; anything else is FailedPrecondition "won't proceed; the user
// didn't answer (Y|y) in order to continue"; end of input without a terminal (</dev/null,
// cloud-init) is FailedPrecondition naming --force, at once. A pipe that stays open and silent
// waits, as in kubeadm. Changes nothing.
Status ConfirmReset(util::Terminal& terminal, util::Printer& out);

}  // namespace kkadm::phases::preflight
