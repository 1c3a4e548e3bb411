// Reading the kube-public/cluster-info ConfigMap (kubeadm's bootstrap-signer output): the
// kubeconfig it publishes and the JWS signatures the controller-manager added to it.
#pragma once

#include <map>
#include <string>

#include "app/phases/discovery/anonymous_client.h"
#include "app/util/kubeconfig.h"
#include "app/util/status.h"

namespace kkadm::phases::discovery {

inline constexpr const char* kClusterInfoPath =
    "/api/v1/namespaces/kube-public/configmaps/cluster-info";
inline constexpr const char* kJwsKeyPrefix = "jws-kubeconfig-";

struct ClusterInfo {
  std::string kubeconfig;                         // data.kubeconfig, exactly as served
  std::map<std::string, std::string> signatures;  // token id -> detached JWS
};

// "https://<endpoint>" for an endpoint "host:port" or "[v6]:port".
std::string EndpointUrl(const std::string& endpoint);

// GETs <server_url>/api/v1/namespaces/kube-public/configmaps/cluster-info. A transport failure
// keeps its code (kUnavailable, or kFailedPrecondition for an untrusted server certificate); an
// HTTP error maps as util::StatusFromApiResponse does; a body that is not a ConfigMap is
// kInvalidArgument.
Result<ClusterInfo> FetchClusterInfo(AnonymousClient& client, const std::string& server_url);

// The one cluster of a cluster-info kubeconfig (the current context's, else the only one), with
// its CA as PEM. InvalidArgument "couldn't parse the kubeconfig file in the cluster-info
// ConfigMap: ..." or "malformed kubeconfig in the cluster-info ConfigMap: ...".
Result<util::KubeconfigCluster> ClusterOfClusterInfo(const std::string& kubeconfig);

}  // namespace kkadm::phases::discovery
