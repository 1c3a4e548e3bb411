// The `control-plane-join` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Children etcd and mark-control-plane; each a no-op for a worker join.
workflow::Phase NewControlPlaneJoinPhase(JoinData& data);

}  // namespace kkadm::phases
