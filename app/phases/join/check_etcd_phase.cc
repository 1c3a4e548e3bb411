// The hidden `check-etcd` phase of `kkadm join`: a thin adapter over RunCheckEtcd.
#include "app/phases/join/check_etcd_phase.h"

#include "app/phases/join/etcd_join.h"

namespace kkadm::phases {

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
