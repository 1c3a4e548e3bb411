// The `wait-control-plane` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

workflow::Phase NewJoinWaitControlPlanePhase(JoinData& data);

// wait-control-plane: data.waiter waits until this node's API server answers /livez
// (data.access->LocalApiClient()), for at most timeouts.controlPlaneComponentHealthCheck, with
// init's [api-check] lines. No-op for a worker.
Status RunJoinWaitControlPlane(JoinData& data);

}  // namespace kkadm::phases
