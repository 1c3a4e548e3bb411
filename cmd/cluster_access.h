// The cluster access of `kkadm init` and `kkadm join`: API clients made from the node's kubeconfig
// files through the host's Network (in a dry run, clients that only say what they would send),
// and for join the discovery of the cluster it joins.
#pragma once

#include <memory>
#include <optional>

#include "app/phases/discovery/join_cluster.h"
#include "app/phases/init/init_data.h"
#include "app/phases/join/join_data.h"
#include "app/util/kube_client.h"

namespace kkadm::cmd {

// init's: admin.conf (--kubeconfig) and super-admin.conf, written by the kubeconfig phase.
class KubeconfigClusterAccess final : public phases::InitClusterAccess {
 public:
  // `data` must outlive the access: it is read on each first use.
  explicit KubeconfigClusterAccess(const phases::InitData& data) : data_(data) {}
  Result<util::KubeClient*> AdminClient() override;
  Result<util::KubeClient*> SuperAdminClient() override;

 private:
  const phases::InitData& data_;
  std::unique_ptr<util::KubeClient> admin_, super_admin_;
};

// join's: discovery over data.discovery_endpoints (or the discovery file, or admin.conf when a
// control-plane join is resumed), the TLS bootstrap identity it yields, and admin.conf once
// control-plane-prepare wrote it.
class DiscoveringClusterAccess final : public phases::JoinClusterAccess {
 public:
  // `data` must outlive the access: it is read on each first use.
  explicit DiscoveringClusterAccess(const phases::JoinData& data) : data_(data) {}
  Result<phases::JoinCluster*> Discovered() override;
  Result<util::KubeClient*> BootstrapClient() override;
  Result<util::KubeClient*> AdminClient() override;
  Result<std::unique_ptr<util::KubeClient>> LocalApiClient() override;

 private:
  const phases::JoinData& data_;
  std::optional<Result<phases::JoinCluster>> cluster_;
  std::unique_ptr<util::KubeClient> bootstrap_, admin_;
};

}  // namespace kkadm::cmd
