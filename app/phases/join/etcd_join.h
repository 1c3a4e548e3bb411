// Joining the stacked etcd cluster (kubeadm's etcd.CreateStackedEtcdStaticPodManifestFile with
// AddMemberAsLearner, and check-etcd): add this node's etcd as a learner through etcd's API, write
// its static Pod for the existing cluster, promote it once it caught up. Knows nothing of the
// workflow engine. Every step is safe to repeat after a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/phases/etcd/etcd_manifest.h"
#include "app/phases/join/join_data.h"
#include "app/util/etcd_client.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

// The client URLs of the cluster's etcd members: the kubeadm.kubernetes.io/etcd.advertise-client-urls
// annotation of the kube-system etcd Pods (kubeadm's way), else https://<InternalIP>:2379 of every
// control-plane Node (for clusters that publish no mirror Pods, like kkadm's sandbox). NotFound
// when there is neither.
Result<std::vector<std::string>> EtcdEndpointsFromCluster(util::KubeClient& client);

struct LearnerAdded {
  uint64_t id = 0;
  bool is_learner = true;                 // false when a re-run finds it promoted already
  std::vector<EtcdMember> initial_cluster;  // every member as "name=peerURL", this one included
};

// kubeadm's AddMemberAsLearner, made idempotent: when a member with `peer_url` exists already (a
// re-run) it is used as it is; else it is added as a learner (the client retries while etcd answers
// "unhealthy cluster"), and "Peer URLs already exists" (an add that was applied but not answered)
// counts as done. Members without a name yet are named by their hex ID, the new one `name`.
Result<LearnerAdded> AddLearner(util::EtcdClient& client, const std::string& name, const std::string& peer_url);

// Promotes member `id` (the client retries while etcd answers "can only promote a learner member
// which is in sync with leader", for its retry timeout). A member that is no longer a learner is
// fine.
Status PromoteLearner(util::EtcdClient& client, uint64_t id);

// control-plane-join/etcd: data dir 0700, AddLearner ("[etcd] Announced new etcd member joining to
// the existing etcd cluster"), etcd.yaml with initial-cluster-state=existing, PromoteLearner, then
// waits (at most 40 s) for this member's endpoint to answer. External etcd: one line, nothing
// done. Dry-run: "Would ..." lines and the manifest printed.
Status RunJoinEtcd(JoinData& data);

// check-etcd: every member endpoint answers its status ("etcd cluster is not healthy: ..." else).
Status RunCheckEtcd(JoinData& data);

}  // namespace kkadm::phases
