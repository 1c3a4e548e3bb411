// What each `kkadm join` phase reads, declared for the node's journal (phase_inputs.h): the
// JoinConfiguration's fields by name and the flags outside it.
#pragma once

#include <vector>

#include "app/phases/join/join_data.h"
#include "app/workflow/phase.h"

namespace kkadm::cmd {

// Sets the `inputs` of every phase of join's tree. `data` must outlive the phases.
void DeclareJoinInputs(std::vector<workflow::Phase>& phases, const phases::JoinData& data);

}  // namespace kkadm::cmd
