// The `control-plane-join` phase of `kkadm join` (kubeadm's phases/join/controlplanejoin.go).
#include "app/phases/join/control_plane_join_phase.h"

#include "app/phases/etcd/etcd_join.h"
#include "app/phases/markcontrolplane/mark_control_plane.h"

namespace kkadm::phases {

Status RunJoinEtcd(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.access->Discovered();
  if (!cluster) return cluster.error();
  const config::InitConfiguration& cfg = (*cluster)->init_cfg;
  if (!cfg.cluster.etcd.local) {
    data.printer().Line("control-plane-join",
                        "Using external etcd - no local stacked instance added");
    return Status::Ok();
  }
  return JoinLocalEtcd(*data.host, data.printer(),
                       {.cfg = cfg, .patches = data.patches, .manifest_dir = data.manifest_dir},
                       *data.etcd);
}

Status RunJoinMarkControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto client = data.access->AdminClient();
  if (!client) return client.error().Wrap("couldn't create Kubernetes client");
  const auto& node = data.cfg.node_registration;
  return MarkControlPlane(**client, data.host->clock, data.printer(), node.name,
                          ControlPlaneTaints(node.taints), data.cfg.timeouts.kubernetes_api_call)
      .Wrap("error applying control-plane label and taints");
}

workflow::Phase NewControlPlaneJoinPhase(JoinData& data) {
  workflow::Phase etcd;
  etcd.name = "etcd";
  etcd.description = "Add a new local etcd member";
  etcd.run = [&data] { return RunJoinEtcd(data); };
  etcd.inherit_flags = {
      "config", "control-plane", "node-name", "patches", "apiserver-advertise-address", "dry-run"};

  workflow::Phase mark;
  mark.name = "mark-control-plane";
  mark.description = "Mark a node as a control-plane";
  mark.run = [&data] { return RunJoinMarkControlPlane(data); };
  mark.inherit_flags = {"config", "control-plane", "node-name", "dry-run"};

  workflow::Phase phase;
  phase.name = "control-plane-join";
  phase.description = "Join a machine as a control plane instance";
  phase.example =
      "  # Joins a machine as a control plane instance\n"
      "  kkadm join phase control-plane-join all";
  phase.children = {std::move(etcd), std::move(mark)};
  return phase;
}

}  // namespace kkadm::phases
