// The `control-plane-join` phase of `kkadm join` (kubeadm's phases/join/controlplanejoin.go).
#include "app/phases/join/control_plane_join_phase.h"

#include "app/phases/join/control_plane_join.h"
#include "app/phases/join/etcd_join.h"

namespace kkadm::phases {

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
