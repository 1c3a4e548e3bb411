// The `control-plane` phase of `kkadm init`: the kube-apiserver, kube-controller-manager and
// kube-scheduler static Pod manifests.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Children apiserver, controller-manager, scheduler. The command's patches are applied to each Pod
// before it is written, and checked to apply before any phase runs.
workflow::Phase NewControlPlanePhase(InitData& data);

}  // namespace kkadm::phases
