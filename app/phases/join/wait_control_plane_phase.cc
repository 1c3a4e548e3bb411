// The `wait-control-plane` phase of `kkadm join`: data.waiter waits for this node's API server.
#include "app/phases/join/wait_control_plane_phase.h"

#include "app/phases/waitcontrolplane/waiter.h"

namespace kkadm::phases {

Status RunJoinWaitControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  return data.waiter->WaitForAPIServer([&data] { return data.access->LocalApiClient(); },
                                       data.cfg.timeouts.control_plane_component_health_check,
                                       data.events);
}

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
