// The `preflight` phase of `kkadm reset`.
#pragma once

#include "app/phases/reset/reset_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "preflight" (alias "pre-flight"): asks for confirmation unless --force or --dry-run, then runs
// the root check. Changes nothing; fails when the user does not confirm or the check fails.
workflow::Phase NewResetPreflightPhase(ResetData& data);

}  // namespace kkadm::phases
