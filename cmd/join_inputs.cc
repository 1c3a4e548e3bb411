// The table of join phases and the configuration fields each reads.
#include "cmd/join_inputs.h"

#include "app/config/config_fields.h"
#include "app/phases/phase_inputs.h"

namespace kkadm::cmd {
namespace {

std::vector<phases::PhaseReads> JoinPhaseReads() {
  return {
      // Checks make nothing that lasts (see init_inputs.cc).
      {"preflight", {}},
      {"control-plane-prepare",
       {"discovery", "controlPlane", "nodeRegistration.name", "patches", "caCertPath"}},
      {"check-etcd", {"discovery", "controlPlane"}},
      {"kubelet-start",
       {"discovery", "nodeRegistration", "caCertPath", "KubeletConfiguration", "patches"}},
      {"control-plane-join", {"discovery", "controlPlane", "nodeRegistration"}},
      {"wait-control-plane", {"timeouts", "controlPlane"}},
  };
}

// Every field join's phases may read, as inputs; how the command runs is not one of them.
std::vector<workflow::PhaseInput> AllJoinInputs(const phases::JoinData& data) {
  std::vector<workflow::PhaseInput> inputs;
  for (util::JsonField& field : config::JoinConfigFields(data.cfg)) {
    if (field.name == "dryRun" || util::FieldIsUnder(field.name, "skipPhases")) continue;
    const bool secret = config::IsSecretField(field.name);
    inputs.push_back({std::move(field.name), std::move(field.value), secret});
  }
  return inputs;
}

}  // namespace

void DeclareJoinInputs(std::vector<workflow::Phase>& phases, const phases::JoinData& data) {
  phases::DeclareInputs(phases, JoinPhaseReads(), [&data] { return AllJoinInputs(data); });
}

}  // namespace kkadm::cmd
