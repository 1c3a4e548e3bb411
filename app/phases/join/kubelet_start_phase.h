// The `kubelet-start` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/phases/kubelet/kubelet_bootstrap.h"
#include "app/phases/kubelet/kubelet_start.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "kubelet-start": RunJoinKubeletStart.
workflow::Phase NewJoinKubeletStartPhase(JoinData& data);

// What kubelet-start writes for this node of `cluster`: the cluster's KubeletConfiguration, this
// node's registration (workers with their taints), the command's patches.
KubeletStartInput JoinKubeletStartInput(const JoinData& data, const JoinCluster& cluster);

// The discovered cluster (data.access->Discovered()), then BootstrapKubelet with
// data.kubelet_bootstrap. In a dry run the files go to the dry-run directory and the dry-run seams
// say what they would do.
Status RunJoinKubeletStart(JoinData& data);

}  // namespace kkadm::phases
