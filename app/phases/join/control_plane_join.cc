// mark-control-plane and wait-control-plane for a joining control-plane node.
#include "app/phases/join/control_plane_join.h"

#include "app/phases/markcontrolplane/mark_control_plane.h"
#include "app/phases/waitcontrolplane/waiter.h"

namespace kkadm::phases {

Status RunJoinMarkControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto client = data.client();
  if (!client) return client.error().Wrap("couldn't create Kubernetes client");
  const auto& node = data.cfg.node_registration;
  return MarkControlPlane(**client, data.host->clock, data.printer(), node.name,
                          ControlPlaneTaints(node.taints), data.cfg.timeouts.kubernetes_api_call)
      .Wrap("error applying control-plane label and taints");
}

Status RunJoinWaitControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  return data.waiter->WaitForAPIServer(data.local_api_client,
                                       data.cfg.timeouts.control_plane_component_health_check);
}

}  // namespace kkadm::phases
