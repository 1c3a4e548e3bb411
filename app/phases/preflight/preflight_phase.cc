// The `preflight` phase of `kkadm init`: a thin adapter over RunInitPreflight.
#include "app/phases/preflight/preflight_phase.h"

#include "app/phases/preflight/init_checks.h"

namespace kkadm::phases {

workflow::Phase NewPreflightPhase(InitData& data) {
  // Fields are assigned one by one: designated initializers that skip members trip
  // -Wmissing-field-initializers.
  workflow::Phase phase;
  phase.name = "preflight";
  phase.description = "Run pre-flight checks";
  phase.long_description = "Run pre-flight checks for kkadm init.";
  phase.example =
      "  # Run pre-flight checks for kkadm init using a config file.\n"
      "  kkadm init phase preflight --config kubeadm-config.yaml";
  phase.run = [&data] { return preflight::RunInitPreflight(data); };
  phase.inherit_flags = {"config",
                         "ignore-preflight-errors",
                         "dry-run",
                         "node-name",
                         "cri-socket",
                         "kubernetes-version",
                         "apiserver-advertise-address",
                         "apiserver-bind-port"};
  return phase;
}

}  // namespace kkadm::phases
