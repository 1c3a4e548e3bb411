// mark-control-plane phase adapter.
#include "app/phases/init/mark_control_plane_phase.h"

#include "app/phases/markcontrolplane/mark_control_plane.h"

namespace kkadm::phases {

workflow::Phase NewMarkControlPlanePhase(InitData& data) {
  workflow::Phase phase;
  phase.name = "mark-control-plane";
  phase.description = "Mark a node as a control-plane";
  phase.example =
      "  # Applies control-plane label and taint to the current node, functionally equivalent to "
      "what executed by kkadm init.\n"
      "  kkadm init phase mark-control-plane --config config.yaml\n\n"
      "  # Applies control-plane label and taint to a specific node\n"
      "  kkadm init phase mark-control-plane --node-name myNode";
  phase.run = [&data]() -> Status {
    auto client = data.access->AdminClient();
    if (!client) return client.error();
    const auto& node = data.cfg.node_registration;
    return MarkControlPlane(**client, data.host->clock, data.printer(), node.name,
                            ControlPlaneTaints(node.taints), data.cfg.timeouts.kubernetes_api_call);
  };
  phase.inherit_flags = {"node-name", "config", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
