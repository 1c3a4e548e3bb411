// DeclareInputs: each phase's inputs picked by name from the command's.
#include "app/phases/phase_inputs.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "app/util/json_fields.h"

namespace kkadm::phases {
namespace {

// The entry for `path`: its own, else a "parent/" entry over it, else its top-level phase's.
const PhaseReads* ReadsOf(const std::vector<PhaseReads>& table, const std::string& path) {
  for (const auto& reads : table) {
    if (reads.path == path) return &reads;
  }
  for (const auto& reads : table) {
    if (reads.path.ends_with('/') && path.starts_with(reads.path)) return &reads;
  }
  const std::string top = path.substr(0, path.find('/'));
  for (const auto& reads : table) {
    if (reads.path == top) return &reads;
  }
  return nullptr;
}

struct Shared {
  std::vector<PhaseReads> table;
  std::function<std::vector<workflow::PhaseInput>()> all;
  std::optional<std::vector<workflow::PhaseInput>> inputs;  // all(), once asked
};

void Declare(std::vector<workflow::Phase>& phases, const std::string& parent,
             const std::shared_ptr<Shared>& shared) {
  for (workflow::Phase& phase : phases) {
    const std::string path = parent.empty() ? phase.name : parent + "/" + phase.name;
    Declare(phase.children, path, shared);
    const PhaseReads* reads = ReadsOf(shared->table, path);
    std::vector<std::string_view> wanted =
        reads != nullptr ? reads->fields : std::vector<std::string_view>{""};
    phase.inputs = [shared, wanted = std::move(wanted)] {
      if (!shared->inputs) shared->inputs = shared->all();
      std::vector<workflow::PhaseInput> inputs;
      for (const workflow::PhaseInput& input : *shared->inputs) {
        if (std::any_of(wanted.begin(), wanted.end(), [&](std::string_view field) {
              return field.empty() || util::FieldIsUnder(input.name, field);
            })) {
          inputs.push_back(input);
        }
      }
      return inputs;
    };
  }
}

}  // namespace

void DeclareInputs(std::vector<workflow::Phase>& phases, std::vector<PhaseReads> table,
                   std::function<std::vector<workflow::PhaseInput>()> all) {
  auto shared = std::make_shared<Shared>(Shared{std::move(table), std::move(all), std::nullopt});
  Declare(phases, "", shared);
}

void AddPatchInputs(const util::patches::Patcher& patches,
                    std::vector<workflow::PhaseInput>& inputs) {
  for (const auto& [target, fingerprint] : patches.Fingerprints()) {
    inputs.push_back({"patches[" + target + "]", fingerprint, false});
  }
}

}  // namespace kkadm::phases
