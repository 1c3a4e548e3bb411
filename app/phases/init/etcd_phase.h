// The `etcd` phase of `kkadm init`: the local etcd data directory and static Pod manifest.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Child "local". Skipped (a debug-level log only, as kubeadm) with external etcd. The command's
// patches (target "etcd") are applied to the Pod before it is written, and checked to apply before
// any phase runs.
workflow::Phase NewEtcdPhase(InitData& data);

}  // namespace kkadm::phases
