// StaticPodInput from an InitConfiguration: `kkadm init`'s, or a joining control-plane node's.
#pragma once

#include "app/phases/controlplane/static_pod_input.h"
#include "app/phases/init/init_data.h"

namespace kkadm::phases {

// The node's advertise endpoint, node name, pull policy and health-check timeout from `cfg`, the
// external-CA mode, and the process environment (for *_proxy variables). `cfg` and `fs` must
// outlive the result. Used by init and by a joining control-plane node (its InitConfiguration).
StaticPodInput StaticPodInputFromConfig(const config::InitConfiguration& cfg,
                                        const util::FileSystem& fs, bool external_ca);

// StaticPodInputFromConfig for `kkadm init`'s data.
StaticPodInput StaticPodInputFromInit(const InitData& data);

}  // namespace kkadm::phases
