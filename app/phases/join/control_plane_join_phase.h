// The `control-plane-join` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// Children etcd and mark-control-plane; each a no-op for a worker join.
workflow::Phase NewControlPlaneJoinPhase(JoinData& data);

// control-plane-join/etcd: JoinLocalEtcd with data.etcd for the discovered cluster's local etcd;
// external etcd: one line, nothing done.
Status RunJoinEtcd(JoinData& data);

// control-plane-join/mark-control-plane: init's MarkControlPlane with admin.conf's client and
// nodeRegistration.taints (nil: the control-plane NoSchedule taint).
Status RunJoinMarkControlPlane(JoinData& data);

}  // namespace kkadm::phases
