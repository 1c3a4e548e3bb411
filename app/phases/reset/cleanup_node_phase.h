// The `cleanup-node` phase of `kkadm reset`.
#pragma once

#include "app/phases/reset/reset_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "cleanup-node" (alias "cleanupnode"): stops the kubelet, unmounts below /var/lib/kubelet, and
// deletes the contents of kubeadm's directories and its kubeconfig files (reset/cleanup_node.h).
// Never fails: what it could not do goes to data.left_behind.
workflow::Phase NewCleanupNodePhase(ResetData& data);

}  // namespace kkadm::phases
