// The pre-flight checks of a joining node (kubeadm's phases/join/preflight.go) beyond the single
// host checks: endpoint checks, resumed joins, the Node, the control plane's shared certificates.
#pragma once

#include <string>

#include "app/config/types.h"
#include "app/phases/preflight/check.h"
#include "app/phases/preflight/join_leftovers.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

// For token discovery: HTTPProxy and IP forwarding for the host of `endpoint` (host:port).
void AddJoinEndpointChecks(const std::string& endpoint, preflight::CheckList& checks);

// The checks an unfinished join of this node fails by its own doing (its files, its running
// kubelet and control plane): FileAvailable-*, DirAvailable-* and Port-*. Removed from `checks`
// and returned by name.
std::vector<std::string> DropLeftoverChecks(preflight::CheckList& checks);

// kubeadm's checkIfReadyForAdditionalControlPlane: the cluster needs a controlPlaneEndpoint, and
// without a certificate key the shared CAs and keys (ca, front-proxy-ca, sa, and etcd/ca with
// local etcd) must be on disk. FailedPrecondition with kubeadm's "One or more conditions for
// hosting a new control plane instance is not satisfied." text.
Status CheckReadyForControlPlane(const config::ClusterConfiguration& cluster,
                                 bool has_certificate_key, const util::FileSystem& fs);

// FailedPrecondition with kubeadm's text when Node `name` exists and is Ready, unless
// `is_this_node` (this machine already holds that Node's kubelet identity: a resumed join).
// NotFound is fine; any other API error is returned as "cannot get Node "<name>": ...".
Status CheckNodeNotReady(util::KubeClient& client, const std::string& name, bool is_this_node);

// OK unless the leftovers of an earlier join are resumable and trust another CA than `ca_pem`,
// the discovered cluster's: FailedPrecondition asking for "kkadm reset" first.
Status CheckLeftoversBelongToCluster(const JoinLeftovers& leftovers, const std::string& ca_pem);

}  // namespace kkadm::phases
