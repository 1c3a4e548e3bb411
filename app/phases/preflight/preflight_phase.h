// The `preflight` phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "preflight": runs kubeadm's init pre-flight checks (app/phases/preflight/init_checks.h) on the
// host of `data`; fails when a check error is not ignored. Changes nothing on the host.
workflow::Phase NewPreflightPhase(InitData& data);

}  // namespace kkadm::phases
