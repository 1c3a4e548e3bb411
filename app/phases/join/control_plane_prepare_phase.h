// The `control-plane-prepare` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Children download-certs, certs, kubeconfig, control-plane; each a no-op for a worker join.
workflow::Phase NewControlPlanePreparePhase(JoinData& data);

}  // namespace kkadm::phases
