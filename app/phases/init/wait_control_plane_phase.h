// The wait-control-plane phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "wait-control-plane": waits for the kubelet's healthz and the API server's /livez, then makes
// sure CRB kubeadm:cluster-admins exists (kubeadm creates it on the first use of admin.conf).
workflow::Phase NewWaitControlPlanePhase(InitData& data);

}  // namespace kkadm::phases
