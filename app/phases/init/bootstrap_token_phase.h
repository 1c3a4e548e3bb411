// The bootstrap-token phase of `kkadm init`.
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "bootstrap-token" (alias "bootstraptoken"): token Secrets (a token with an empty id is
// generated first and stored back into data.cfg), bootstrap RBAC and cluster-info.
workflow::Phase NewBootstrapTokenPhase(InitData& data);

}  // namespace kkadm::phases
