// The init `kubeconfig` phase and its sub-phases (admin, super-admin, kubelet, controller-manager,
// scheduler).
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// `kubeconfig` prints the kubeconfig folder and starts generating the client keys of the files
// still missing; each sub-phase writes, reuses or (external CA) validates one file
// (app/phases/kubeconfig/kubeconfig_files.h).
workflow::Phase NewKubeconfigPhase(InitData& data);

}  // namespace kkadm::phases
