// The `preflight` phase of `kkadm reset`.
#pragma once

#include "app/phases/reset/reset_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "preflight" (alias "pre-flight"): asks for confirmation unless --force or --dry-run, then runs
// the root check. Changes nothing; fails when the user does not confirm or the check fails.
workflow::Phase NewResetPreflightPhase(ResetData& data);

namespace reset {

// The whole phase: ConfirmReset when data.confirm (the command's decision: not with --force, nor
// in a dry run), then `[preflight] Running pre-flight checks` and the IsPrivilegedUser check with
// --ignore-preflight-errors. Changes nothing on the host.
Status RunResetPreflight(ResetData& data);

}  // namespace reset
}  // namespace kkadm::phases
