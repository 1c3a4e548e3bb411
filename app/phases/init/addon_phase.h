// The addon phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "addon" with children "coredns" and "kube-proxy" (each skipped when dns/proxy is disabled) and
// the local flag --print-manifest (data.print_addon_manifests).
workflow::Phase NewAddonPhase(InitData& data);

}  // namespace kkadm::phases
