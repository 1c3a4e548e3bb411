// The `remove-etcd-member` phase of `kkadm reset`: a thin adapter over RunRemoveEtcdMember.
#include "app/phases/reset/remove_etcd_member_phase.h"

#include "app/phases/reset/etcd_member.h"

namespace kkadm::phases {

workflow::Phase NewRemoveEtcdMemberPhase(ResetData& data) {
  workflow::Phase phase;
  phase.name = "remove-etcd-member";
  phase.description = "Remove a local etcd member.";
  phase.long_description = "Remove a local etcd member for a control plane node.";
  phase.run = [&data] { return reset::RunRemoveEtcdMember(data); };
  phase.inherit_flags = {"config", "kubeconfig", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
