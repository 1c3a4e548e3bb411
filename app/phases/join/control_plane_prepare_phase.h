// The `control-plane-prepare` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Children download-certs, certs, kubeconfig, control-plane; each a no-op for a worker join.
workflow::Phase NewControlPlanePreparePhase(JoinData& data);

// Checks, writing nothing, that the command's patches apply to every object a control-plane join
// writes (the control-plane and etcd Pods, the KubeletConfiguration): run before its first file is
// written, so that a patch that does not apply leaves the node untouched. A no-op for a worker.
Status CheckControlPlaneJoinPatches(JoinData& data);

// The phases' work, each a no-op for a worker join.
Status RunDownloadCerts(JoinData& data);  // only with a certificate key
Status RunPrepareCerts(JoinData& data);   // every missing CA-signed certificate and the sa keys
Status RunPrepareKubeconfigs(
    JoinData& data);  // admin.conf, controller-manager.conf, scheduler.conf
Status RunPrepareControlPlane(JoinData& data);  // the three control-plane static Pods

}  // namespace kkadm::phases
