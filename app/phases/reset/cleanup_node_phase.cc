// The `cleanup-node` phase of `kkadm reset`: a thin adapter over RunCleanupNode.
#include "app/phases/reset/cleanup_node_phase.h"

#include "app/phases/reset/cleanup_node.h"

namespace kkadm::phases {

workflow::Phase NewCleanupNodePhase(ResetData& data) {
  workflow::Phase phase;
  phase.name = "cleanup-node";
  phase.aliases = {"cleanupnode"};
  phase.description = "Run cleanup node.";
  phase.run = [&data] { return reset::RunCleanupNode(data); };
  phase.inherit_flags = {"config",          "cert-dir",    "cri-socket",
                         "cleanup-tmp-dir", "cleanup-cni", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
