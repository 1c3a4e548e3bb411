// The kubelet-start phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "kubelet-start": writes kubeadm-flags.env, config.yaml and the kubelet's systemd unit files,
// then stops, reloads, enables and starts kubelet.service through data.host->init.
workflow::Phase NewKubeletStartPhase(InitData& data);

}  // namespace kkadm::phases
