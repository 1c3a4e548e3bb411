// `kkadm reset`'s confirmation question.
#pragma once

#include "app/util/printer.h"
#include "app/util/status.h"
#include "app/util/terminal.h"

namespace kkadm::phases::preflight {

// Prints kubeadm's warning and, when standard input is a terminal, asks `[reset] Are you sure you
// want to proceed? [y/N]: ` and reads one line. "y" or "Y" (blanks around it ignored) goes on;
// anything else, or end of input, is FailedPrecondition "won't proceed; the user didn't answer
// (Y|y) in order to continue". Without a terminal it does not ask (an unattended run must neither
// hang nor guess) and fails at once, naming --force. Changes nothing.
Status ConfirmReset(util::Terminal& terminal, util::Printer& out);

}  // namespace kkadm::phases::preflight
