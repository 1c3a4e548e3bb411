// The hidden `check-etcd` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

workflow::Phase NewCheckEtcdPhase(JoinData& data);

}  // namespace kkadm::phases
