// mark-control-plane and wait-control-plane for a joining control-plane node.
#include "app/phases/join/control_plane_join.h"

#include "app/phases/markcontrolplane/mark_control_plane.h"
#include "app/phases/waitcontrolplane/wait.h"

namespace kkadm::phases {

Status RunJoinMarkControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto client = data.client();
  if (!client) return client.error().Wrap("couldn't create Kubernetes client");
  const auto& node = data.cfg.node_registration;
  return MarkControlPlane(**client, data.host->clock, data.printer(), node.name, ControlPlaneTaints(node.taints),
                          data.cfg.timeouts.kubernetes_api_call)
      .Wrap("error applying control-plane label and taints");
}

Status RunJoinWaitControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  const auto timeout = data.cfg.timeouts.control_plane_component_health_check;
  if (data.dry_run) {
    data.printer().Line("dryrun", "Would wait for the API Server's /livez endpoint to return 'ok'");
    return Status::Ok();
  }
  auto client = data.local_api_client();
  if (!client) return client.error();
  data.printer().Line("api-check", "Waiting for a healthy API server. This can take up to " + FormatGoDuration(timeout));
  auto healthy = PollUntilHealthy(data.host->clock, [&] { return (*client)->GetRaw("/livez").status(); }, timeout);
  if (!healthy) {
    return Unavailable("the API server of this node is not healthy after " + FormatGoDuration(timeout) + ": " +
                       healthy.error().message());
  }
  data.printer().Line("api-check", "The API server is healthy after " + FormatGoDuration(*healthy));
  return Status::Ok();
}

}  // namespace kkadm::phases
