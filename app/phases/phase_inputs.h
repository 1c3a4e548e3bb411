// Declaring what each phase of a command reads, for the node's journal: a table names, per
// phase, the configuration fields (config/config_fields.h) and flags it reads; each phase's
// `inputs` is then the command's inputs under those names.
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "app/util/patches/patcher.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

struct PhaseReads {
  // The phase's path; its entry also stands for the phases below it that have none. A path
  // ending in "/" ("certs/") stands for every phase below that has no entry of its own.
  std::string_view path;
  // Field names, each with the fields below it ("networking" covers "networking.podSubnet");
  // "" stands for every input.
  std::vector<std::string_view> fields;
};

// Sets `inputs` of every phase of `phases`. `all` makes every input of the command (after data
// initialisation); it is called once, when the first phase is asked. A phase the table does not
// cover reads everything: a change is never missed.
void DeclareInputs(std::vector<workflow::Phase>& phases, std::vector<PhaseReads> table,
                   std::function<std::vector<workflow::PhaseInput>()> all);

// Appends what the patches of each target say as the input "patches[<target>]" (a phase that
// patches a target reads its patches' content, not only the directory's name).
void AddPatchInputs(const util::patches::Patcher& patches,
                    std::vector<workflow::PhaseInput>& inputs);

}  // namespace kkadm::phases
