// Joining the stacked etcd cluster (kubeadm's etcd.CreateStackedEtcdStaticPodManifestFile with
// AddMemberAsLearner, and check-etcd): add this node's etcd as a learner through etcd's API, write
// its static Pod for the existing cluster, promote it once it caught up. Knows nothing of the
// workflow engine. Every step is safe to repeat after a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/cluster_access.h"
#include "app/phases/etcd/etcd_manifest.h"
#include "app/util/etcd_client.h"
#include "app/util/events.h"
#include "app/util/host.h"
#include "app/util/kube_client.h"
#include "app/util/patches/patcher.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

// The client URLs of the cluster's etcd members: the
// kubeadm.kubernetes.io/etcd.advertise-client-urls annotation of the kube-system etcd Pods
// (kubeadm's way), else https://<InternalIP>:2379 of every control-plane Node (for clusters that
// publish no mirror Pods, like kkadm's sandbox). NotFound when there is neither.
Result<std::vector<std::string>> EtcdEndpointsFromCluster(util::KubeClient& client);

struct LearnerAdded {
  uint64_t id = 0;
  bool is_learner = true;                   // false when a re-run finds it promoted already
  std::vector<EtcdMember> initial_cluster;  // every member as "name=peerURL", this one included
};

// kubeadm's AddMemberAsLearner, made idempotent: when a member with `peer_url` exists already (a
// re-run) it is used as it is; else it is added as a learner (the client retries while etcd answers
// "unhealthy cluster"), and "Peer URLs already exists" (an add that was applied but not answered)
// counts as done. Members without a name yet are named by their hex ID, the new one `name`.
Result<LearnerAdded> AddLearner(util::EtcdClient& client, const std::string& name,
                                const std::string& peer_url);

// Promotes member `id` (the client retries while etcd answers "can only promote a learner member
// which is in sync with leader", for its retry timeout). A member that is no longer a learner is
// fine.
Status PromoteLearner(util::EtcdClient& client, uint64_t id);

// The stacked etcd cluster as a control-plane join changes it (kubeadm's etcd client in
// CheckLocalEtcd and CreateStackedEtcdStaticPodManifestFile). RealEtcdJoiner reaches etcd's API
// through the endpoints the cluster publishes, with the node's etcd client certificate; the
// command builds it, or for --dry-run a DryRunEtcdJoiner, which reaches nothing and says what it
// would do.
class EtcdJoiner {
 public:
  virtual ~EtcdJoiner() = default;
  // Every member endpoint answers its status ("etcd cluster is not healthy: ..." else). A dry
  // run says "[check-etcd] Would check that the etcd cluster is healthy".
  virtual Status CheckHealth(const config::InitConfiguration& cfg) = 0;
  // AddLearner ("error adding the etcd member <peer_url>: ..."), then "[etcd] Announced new etcd
  // member joining to the existing etcd cluster". A dry run says "[etcd] Would add etcd member:
  // <peer_url>" and answers with a cluster of this member alone, as kubeadm's dry run writes it.
  virtual Result<LearnerAdded> AddMember(const config::InitConfiguration& cfg,
                                         const std::string& name, const std::string& peer_url) = 0;
  // Promotes the member when it is a learner, then waits (at most cfg.timeouts.etcdAPICall) until
  // its own endpoint answers as a voting member. A dry run says "[etcd] Would wait for the new etcd
  // member to join the cluster".
  virtual Status PromoteAndWait(const config::InitConfiguration& cfg, const LearnerAdded& added,
                                const std::string& peer_url) = 0;
};

class RealEtcdJoiner final : public EtcdJoiner {
 public:
  // `cluster` publishes etcd's endpoints; its admin client is made when first needed. The wait
  // for the new member is events too (what: etcd-member).
  RealEtcdJoiner(util::Host& host, util::Printer& out, ClusterAccess& cluster,
                 util::Events events = {})
      : host_(host), out_(out), cluster_(cluster), events_(events) {}
  Status CheckHealth(const config::InitConfiguration& cfg) override;
  Result<LearnerAdded> AddMember(const config::InitConfiguration& cfg, const std::string& name,
                                 const std::string& peer_url) override;
  Status PromoteAndWait(const config::InitConfiguration& cfg, const LearnerAdded& added,
                        const std::string& peer_url) override;

 private:
  util::Host& host_;
  util::Printer& out_;
  ClusterAccess& cluster_;
  util::Events events_;
  std::unique_ptr<util::EtcdClient> client_;  // the one AddMember used, kept for the promotion
};

class DryRunEtcdJoiner final : public EtcdJoiner {
 public:
  explicit DryRunEtcdJoiner(util::Printer& out) : out_(out) {}
  Status CheckHealth(const config::InitConfiguration& cfg) override;
  Result<LearnerAdded> AddMember(const config::InitConfiguration& cfg, const std::string& name,
                                 const std::string& peer_url) override;
  Status PromoteAndWait(const config::InitConfiguration& cfg, const LearnerAdded& added,
                        const std::string& peer_url) override;

 private:
  util::Printer& out_;
};

// What a control-plane join adds to the stacked etcd cluster: the joining node's configuration
// (the cluster's, with this node's registration and local API endpoint), its patches and where
// its manifest goes.
struct LocalEtcdJoin {
  const config::InitConfiguration& cfg;
  const util::patches::Patcher& patches;
  std::string manifest_dir;
};

// control-plane-join/etcd for a cluster with local etcd: data dir 0700, this node's member added
// (joiner.AddMember), etcd.yaml with initial-cluster-state=existing, then the member promoted and
// waited for (PromoteAndWait). A patch that does not apply to the etcd Pod fails before anything is
// changed. With the dry run's seams they say what they would do and the manifest is shown.
Status JoinLocalEtcd(util::Host& host, util::Printer& out, const LocalEtcdJoin& in,
                     EtcdJoiner& joiner);

}  // namespace kkadm::phases
