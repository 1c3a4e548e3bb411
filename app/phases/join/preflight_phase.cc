// The `preflight` phase of `kkadm join`: a thin adapter over RunJoinPreflight.
#include "app/phases/join/preflight_phase.h"

#include "app/phases/join/join_preflight.h"

namespace kkadm::phases {

workflow::Phase NewJoinPreflightPhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "preflight";
  phase.args_usage = "[api-server-endpoint]";
  phase.description = "Run join pre-flight checks";
  phase.long_description = "Run pre-flight checks for kkadm join.";
  phase.example =
      "  # Run join pre-flight checks using a config file.\n"
      "  kkadm join phase preflight --config kubeadm-config.yaml";
  phase.run = [&data] { return RunJoinPreflight(data); };
  phase.inherit_flags = {"api-server-endpoint",
                         "config",
                         "ignore-preflight-errors",
                         "tls-bootstrap-token",
                         "token",
                         "control-plane",
                         "apiserver-advertise-address",
                         "apiserver-bind-port",
                         "cri-socket",
                         "node-name",
                         "discovery-file",
                         "discovery-token",
                         "discovery-token-ca-cert-hash",
                         "discovery-token-unsafe-skip-ca-verification",
                         "certificate-key",
                         "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
