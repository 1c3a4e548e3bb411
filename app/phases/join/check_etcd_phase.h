// The hidden `check-etcd` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

workflow::Phase NewCheckEtcdPhase(JoinData& data);

// check-etcd: for a control-plane join to a cluster with local etcd, "[check-etcd] Checking that
// the etcd cluster is healthy", then data.etcd's CheckHealth.
Status RunCheckEtcd(JoinData& data);

}  // namespace kkadm::phases
