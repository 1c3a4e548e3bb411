// StaticPodInput for `kkadm init`, from its InitData.
#pragma once

#include "app/phases/controlplane/static_pod_input.h"
#include "app/phases/init/init_data.h"

namespace kkadm::phases {

// The node's advertise endpoint, node name, pull policy, health-check timeout and external-CA
// mode from `data`, plus the process environment (for *_proxy variables).
StaticPodInput StaticPodInputFromInit(const InitData& data);

}  // namespace kkadm::phases
