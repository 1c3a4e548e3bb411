// The upload-config phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "upload-config" (alias "uploadconfig") with children "kubeadm" (ConfigMap kubeadm-config from
// data.cluster_config_yaml) and "kubelet" (ConfigMap kubelet-config, then the Node's CRI socket
// annotation).
workflow::Phase NewUploadConfigPhase(InitData& data);

}  // namespace kkadm::phases
