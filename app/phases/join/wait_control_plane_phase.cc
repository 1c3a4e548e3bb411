// The `wait-control-plane` phase of `kkadm join`: a thin adapter over RunJoinWaitControlPlane.
#include "app/phases/join/wait_control_plane_phase.h"

#include "app/phases/join/control_plane_join.h"

namespace kkadm::phases {

workflow::Phase NewJoinWaitControlPlanePhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "wait-control-plane";
  phase.description = "Wait for the control plane to start";
  phase.long_description = "Wait until the API server of a new control-plane node answers /livez.";
  phase.run = [&data] { return RunJoinWaitControlPlane(data); };
  phase.inherit_flags = {"config", "control-plane", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
