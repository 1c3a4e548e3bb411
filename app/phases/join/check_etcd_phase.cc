// The hidden `check-etcd` phase of `kkadm join`: data.etcd checks the cluster's local etcd.
#include "app/phases/join/check_etcd_phase.h"

#include "app/phases/etcd/etcd_join.h"

namespace kkadm::phases {

Status RunCheckEtcd(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.access->Discovered();
  if (!cluster) return cluster.error();
  const config::InitConfiguration& cfg = (*cluster)->init_cfg;
  if (!cfg.cluster.etcd.local) return Status::Ok();
  data.printer().Line("check-etcd", "Checking that the etcd cluster is healthy");
  return data.etcd->CheckHealth(cfg);
}

workflow::Phase NewCheckEtcdPhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "check-etcd";
  phase.description =
      "Check that the local etcd cluster is healthy before a control-plane node joins it";
  phase.hidden = true;  // as in kubeadm
  phase.run = [&data] { return RunCheckEtcd(data); };
  return phase;
}

}  // namespace kkadm::phases
