// The init `certs` phase and its sub-phases (ca, apiserver, ..., sa).
#pragma once

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// `certs` prints the certificate directory and starts generating, in background threads, the
// keys its sub-phases will need; each sub-phase then creates or reuses one item
// (app/phases/certs/certs.h), taking its key from that pool. A sub-phase run alone (`kkadm init
// phase certs apiserver`) loads its CA from disk and makes its own key.
workflow::Phase NewCertsPhase(InitData& data);

}  // namespace kkadm::phases
