// Finding the cluster a node joins (kubeadm's joinData.TLSBootstrapCfg and InitCfg): discovery,
// then the cluster's configuration read with the TLS bootstrap identity. Knows nothing of phases.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/discovery/tls_bootstrap.h"
#include "app/phases/discovery/token_discovery.h"
#include "app/util/file_system.h"
#include "app/util/kube_client_real.h"
#include "app/util/kubeconfig.h"

namespace kkadm::phases {

// What discovery established about the cluster this node joins.
struct JoinCluster {
  // The identity the kubelet bootstraps with and kkadm reads the cluster with before this node has
  // its own: cluster "kubernetes" (server + verified CA) and user tls-bootstrap-token-user (or the
  // discovery file's credentials, or admin.conf when a control-plane join resumes).
  util::Kubeconfig tls_bootstrap;
  std::string ca_pem;  // the cluster CA, verified
  // The cluster's ClusterConfiguration and KubeletConfiguration with this node's registration,
  // local API endpoint (control plane), timeouts and patches: what kubeadm calls initCfg.
  config::InitConfiguration init_cfg;
};

struct JoinClusterEnv {
  discovery::DiscoveryEnv discovery;
  // Builds an API client (util::RealKubeClient in production).
  std::function<std::unique_ptr<util::KubeClient>(const util::KubeClientConfig&)> make_client;
  // Reads a file of this machine (--discovery-file and the files it names).
  std::function<Result<std::string>(const std::string&)> read_local_file;
  const util::FileSystem& fs;  // the node's files (admin.conf)
};

// The InitConfiguration of the joining node: the cluster's configuration with this node's
// registration, its local API endpoint when it joins the control plane, the join's timeouts,
// patches directory and dry-run, and the cluster's KubeletConfiguration.
config::InitConfiguration JoinInitConfiguration(const config::JoinConfiguration& cfg,
                                                discovery::ClusterState state);

// With --control-plane and an admin.conf on the node (a control-plane join that is resumed, or a
// phase run after control-plane-prepare), admin.conf is the identity and nothing is discovered, as
// in kubeadm. Otherwise token discovery over `endpoints` (in order) or file discovery, wrapped
// "couldn't validate the identity of the API Server: ...", and the TLS bootstrap kubeconfig built
// from the verified cluster. Then kubeadm-config and kubelet-config are read with that identity.
Result<JoinCluster> DiscoverJoinCluster(const config::JoinConfiguration& cfg,
                                        const std::vector<std::string>& endpoints,
                                        const std::string& admin_kubeconfig_path,
                                        JoinClusterEnv& env);

}  // namespace kkadm::phases
