// The `preflight` phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/phases/preflight/check.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "preflight": RunInitPreflight.
workflow::Phase NewPreflightPhase(InitData& data);

// kubeadm's init check list (preflight::InitNodeChecks) for `data`'s configuration and manifest
// directory.
preflight::CheckList InitNodeChecks(const InitData& data);

// Prints "[preflight] Running pre-flight checks", runs the root check alone (fail-fast), then
// InitNodeChecks; in dry-run prints that images would be pulled. Changes nothing on the host.
// FailedPrecondition when a check error is not ignored.
Status RunInitPreflight(InitData& data);

}  // namespace kkadm::phases
