// What each `kkadm init` phase reads, declared for the node's journal: the configuration fields
// by name (config/config_fields.h) and the flags outside the configuration. A phase is not run
// again while these are as they were, and a change to them is named field by field.
#pragma once

#include <vector>

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::cmd {

// Sets the `inputs` of every phase of init's tree. `data` must outlive the phases.
void DeclareInitInputs(std::vector<workflow::Phase>& phases, const phases::InitData& data);

}  // namespace kkadm::cmd
