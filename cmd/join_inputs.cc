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
       {"discovery", "controlPlane", "nodeRegistration.name", "caCertPath", "patches.directory",
        "patches[kube-apiserver]", "patches[kube-controller-manager]", "patches[kube-scheduler]"}},
      {"check-etcd", {"discovery", "controlPlane"}},
      {"kubelet-start",
       {"discovery", "nodeRegistration", "caCertPath", "KubeletConfiguration", "patches.directory",
        "patches[kubeletconfiguration]"}},
      {"control-plane-join",
       {"discovery", "controlPlane", "nodeRegistration", "patches.directory", "patches[etcd]"}},
      {"wait-control-plane", {"timeouts", "controlPlane"}},
  };
}

// Every field join's phases may read, as inputs; how the command runs (dry run, phases skipped,
// pre-flight errors ignored) is not one of them.
std::vector<workflow::PhaseInput> AllJoinInputs(const phases::JoinData& data) {
  std::vector<workflow::PhaseInput> inputs;
  for (util::JsonField& field : config::JoinConfigFields(data.cfg)) {
    if (field.name == "dryRun" || util::FieldIsUnder(field.name, "skipPhases") ||
        util::FieldIsUnder(field.name, "nodeRegistration.ignorePreflightErrors")) {
      continue;
    }
    const bool secret = config::IsSecretField(field.name);
    inputs.push_back({std::move(field.name), std::move(field.value), secret});
  }
  phases::AddPatchInputs(data.patches, inputs);
  return inputs;
}

}  // namespace

void DeclareJoinInputs(std::vector<workflow::Phase>& phases, const phases::JoinData& data) {
  phases::DeclareInputs(phases, JoinPhaseReads(), [&data] { return AllJoinInputs(data); });
}

}  // namespace kkadm::cmd
