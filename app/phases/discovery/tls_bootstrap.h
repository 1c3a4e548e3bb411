// After discovery: the TLS bootstrap identity (kubeadm's discovery.For) and what a joining node
// reads from the cluster with it (kubeadm's FetchInitConfigurationFromCluster).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/config/types.h"
#include "app/phases/discovery/token_discovery.h"
#include "app/util/kube_client.h"
#include "app/util/kube_client_real.h"
#include "app/util/kubeconfig.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::discovery {

inline constexpr const char* kTlsBootstrapUser = "tls-bootstrap-token-user";
inline constexpr const char* kDefaultClusterName = "kubernetes";

// Cluster "kubernetes" at the verified server with its CA, user "tls-bootstrap-token-user" with
// `token`, context "tls-bootstrap-token-user@kubernetes" current. The only way a bootstrap token
// becomes a credential: it takes a VerifiedCluster.
util::Kubeconfig TlsBootstrapKubeconfig(const VerifiedCluster& cluster, const std::string& token);

// The API client settings of a kubeconfig's current context, data embedded (a TLS bootstrap or
// discovery kubeconfig). InvalidArgument when the context, cluster or user is missing, or when the
// cluster has no CA (a credential is never sent to a server no CA vouches for).
Result<util::KubeClientConfig> ClientConfigOf(const util::Kubeconfig& kubeconfig);

// What a joining node needs from the cluster.
struct ClusterState {
  config::ClusterConfiguration cluster;
  nlohmann::json kubelet;  // the KubeletConfiguration of kubelet-config, as JSON
};

// Prints "[preflight] Reading configuration from the cluster..." and kubeadm's FYI line, then GETs
// kube-system/kubeadm-config (data.ClusterConfiguration) and kube-system/kubelet-config
// (data.kubelet). Errors are wrapped "unable to fetch the kubeadm-config ConfigMap" (or
// kubelet-config).
Result<ClusterState> FetchClusterState(util::KubeClient& client, util::Printer& out);

}  // namespace kkadm::phases::discovery
