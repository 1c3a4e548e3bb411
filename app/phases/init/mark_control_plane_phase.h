// The mark-control-plane phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "mark-control-plane": labels the Node as control plane and applies nodeRegistration.taints.
workflow::Phase NewMarkControlPlanePhase(InitData& data);

}  // namespace kkadm::phases
