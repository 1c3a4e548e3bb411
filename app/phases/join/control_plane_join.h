// The rest of a control-plane join after etcd: the control-plane label and taint, and waiting for
// this node's API server. Knows nothing of the workflow engine.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/util/status.h"

namespace kkadm::phases {

// control-plane-join/mark-control-plane: init's MarkControlPlane with admin.conf's client and
// nodeRegistration.taints (nil: the control-plane NoSchedule taint). No-op for a worker.
Status RunJoinMarkControlPlane(JoinData& data);

// wait-control-plane: data.waiter waits until this node's API server answers /livez
// (data.local_api_client), for at most timeouts.controlPlaneComponentHealthCheck, with init's
// [api-check] lines. No-op for a worker.
Status RunJoinWaitControlPlane(JoinData& data);

}  // namespace kkadm::phases
