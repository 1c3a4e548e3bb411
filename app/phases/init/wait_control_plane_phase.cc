// wait-control-plane phase adapter.
#include "app/phases/init/wait_control_plane_phase.h"

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/waitcontrolplane/waiter.h"
#include "app/util/network.h"

namespace kkadm::phases {
namespace {

// admin.conf's group gets its rights from the kubeadm:cluster-admins binding, so while it is
// missing admin.conf is Forbidden and kubeadm creates it with super-admin.conf.
Status BindClusterAdmins(InitData& data, util::KubeClient& admin) {
  Status s = EnsureAdminClusterRoleBinding(admin);
  if (s.code() != StatusCode::kPermissionDenied) return s;
  auto super_admin = data.access->SuperAdminClient();
  if (!super_admin) return super_admin.error();
  return EnsureAdminClusterRoleBinding(**super_admin);
}

Status RunWaitControlPlane(InitData& data) {
  const auto& t = data.cfg.timeouts;
  WaitControlPlaneInput in{
      .manifest_dir = data.manifest_dir,
      .cri_socket = data.cfg.node_registration.cri_socket,
      .kubelet_timeout = t.kubelet_health_check,
      .api_timeout = t.control_plane_component_health_check,
      .http_get = [&data](const std::string& url) { return util::GetOk(data.host->net, url); },
      .client = [&data] { return data.access->AdminClient(); },
      .events = data.events};
  KKADM_RETURN_IF_ERROR(data.waiter->WaitForControlPlane(in));
  auto client = data.access->AdminClient();
  if (!client) return client.error();
  return data.waiter
      ->WaitForAdminAccess(t.kubernetes_api_call, [&] { return BindClusterAdmins(data, **client); })
      .Wrap("unable to create the kubeadm:cluster-admins ClusterRoleBinding");
}

}  // namespace

workflow::Phase NewWaitControlPlanePhase(InitData& data) {
  workflow::Phase phase;
  phase.name = "wait-control-plane";
  phase.description = "Wait for the control plane to start";
  phase.hidden = true;  // as in kubeadm <= 1.32
  phase.run = [&data] { return RunWaitControlPlane(data); };
  return phase;
}

}  // namespace kkadm::phases
