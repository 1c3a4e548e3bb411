// The `remove-etcd-member` phase of `kkadm reset`.
#pragma once

#include "app/phases/reset/reset_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "remove-etcd-member": takes this node's member out of the etcd cluster (unless it is the only
// one) and empties the etcd data directory (reset/etcd_member.h). Never fails: what it could not
// do goes to data.left_behind.
workflow::Phase NewRemoveEtcdMemberPhase(ResetData& data);

}  // namespace kkadm::phases
