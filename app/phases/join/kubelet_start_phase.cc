// The `kubelet-start` phase of `kkadm join`: a thin adapter over RunJoinKubeletStart.
#include "app/phases/join/kubelet_start_phase.h"

#include "app/phases/join/kubelet_bootstrap.h"

namespace kkadm::phases {

workflow::Phase NewJoinKubeletStartPhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "kubelet-start";
  phase.args_usage = "[api-server-endpoint]";
  phase.description = "Write kubelet settings, certificates and (re)start the kubelet";
  phase.long_description =
      "Write a file with KubeletConfiguration and an environment file with node specific kubelet "
      "settings, and then (re)start kubelet.";
  phase.run = [&data] { return RunJoinKubeletStart(data); };
  phase.inherit_flags = {"api-server-endpoint",
                         "config",
                         "cri-socket",
                         "node-name",
                         "discovery-file",
                         "discovery-token",
                         "discovery-token-ca-cert-hash",
                         "discovery-token-unsafe-skip-ca-verification",
                         "tls-bootstrap-token",
                         "token",
                         "patches",
                         "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
