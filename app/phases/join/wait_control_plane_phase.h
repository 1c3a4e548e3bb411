// The `wait-control-plane` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

workflow::Phase NewJoinWaitControlPlanePhase(JoinData& data);

}  // namespace kkadm::phases
