// The `preflight` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

workflow::Phase NewJoinPreflightPhase(JoinData& data);

}  // namespace kkadm::phases
