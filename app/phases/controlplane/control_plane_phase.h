// The `control-plane` phase of `kkadm init`: the kube-apiserver, kube-controller-manager and
// kube-scheduler static Pod manifests.
#pragma once

#include "app/phases/controlplane/static_pod_input.h"
#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Children apiserver, controller-manager, scheduler. `patcher` (may be empty) is applied to each
// Pod before it is written (the --patches directory).
workflow::Phase NewControlPlanePhase(InitData& data, ManifestPatcher patcher = {});

}  // namespace kkadm::phases
