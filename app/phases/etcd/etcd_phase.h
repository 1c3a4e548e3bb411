// The `etcd` phase of `kkadm init`: the local etcd data directory and static Pod manifest.
#pragma once

#include "app/phases/controlplane/static_pod_input.h"
#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Child "local". Skipped (a debug-level log only, as kubeadm) with external etcd. `patcher` (may be
// empty) is applied to the Pod before it is written.
workflow::Phase NewEtcdPhase(InitData& data, ManifestPatcher patcher = {});

}  // namespace kkadm::phases
