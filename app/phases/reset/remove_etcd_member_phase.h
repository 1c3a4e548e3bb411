// The `remove-etcd-member` phase of `kkadm reset`.
#pragma once

#include "app/phases/reset/reset_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "remove-etcd-member": takes this node's member out of the etcd cluster (unless it is the only
// one) and empties the etcd data directory (etcd/etcd_member_removal.h). Never fails: what it could
// not do goes to data.left_behind.
workflow::Phase NewRemoveEtcdMemberPhase(ResetData& data);

namespace reset {

// The whole phase. The data directory is the cluster configuration's etcd.local.dataDir, else
// (warning) the etcd-data volume of <manifest dir>/etcd.yaml, else /var/lib/etcd; with external
// etcd in the cluster configuration, or an etcd.yaml that cannot be read, only kubeadm's "manually
// reset etcd" lines are printed. When etcd.yaml exists, the member is removed through the local
// etcd's client URLs with the node's certificates (pki/apiserver-etcd-client, pki/etcd/ca.crt).
// Then the data directory is emptied (kept). Nothing here fails the phase: what could not be done
// is added to data.left_behind. With the dry run's seams only their "Would ..." lines are printed.
Status RunRemoveEtcdMember(ResetData& data);

}  // namespace reset
}  // namespace kkadm::phases
