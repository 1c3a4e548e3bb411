// The kubelet-finalize phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "kubelet-finalize" with child "enable-client-cert-rotation".
workflow::Phase NewKubeletFinalizePhase(InitData& data);

}  // namespace kkadm::phases
