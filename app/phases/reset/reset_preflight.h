// The work of `kkadm reset`'s preflight phase: the confirmation question and the root check.
#pragma once

#include "app/phases/reset/reset_data.h"
#include "app/util/status.h"

namespace kkadm::phases::reset {

// Prints kubeadm's warning and, when standard input is a terminal, asks `[reset] Are you sure you
// want to proceed? [y/N]: ` and reads one line. "y" or "Y" (blanks around it ignored) goes on;
// anything else, or end of input, is FailedPrecondition "won't proceed; the user didn't answer
// (Y|y) in order to continue". Without a terminal it does not ask (an unattended run must neither
// hang nor guess) and fails at once, naming --force. Changes nothing.
Status ConfirmReset(util::Terminal& terminal, util::Printer& out);

// The whole phase: ConfirmReset when data.confirm (the command's decision: not with --force, nor
// in a dry run), then `[preflight] Running pre-flight checks` and the IsPrivilegedUser check with
// --ignore-preflight-errors. Changes nothing on the host.
Status RunResetPreflight(ResetData& data);

}  // namespace kkadm::phases::reset
