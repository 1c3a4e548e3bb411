// The pre-flight checks of a joining node (kubeadm's phases/join/preflight.go) beyond the single
// host checks: endpoint checks, the Node, the control plane's shared certificates.
#pragma once

#include <string>

#include "app/config/types.h"
#include "app/phases/preflight/check.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

// For token discovery: HTTPProxy and IP forwarding for the host of `endpoint` (host:port).
void AddJoinEndpointChecks(const std::string& endpoint, preflight::CheckList& checks);

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

// True when the kubeconfig at `path` trusts the CA `ca_pem` (its current cluster's, embedded or
// in a file it names; compared without surrounding whitespace) and holds a client certificate
// whose common name is `user` (e.g. "system:node:worker-1"): that user of that cluster. Read
// through `fs`.
bool KubeconfigIsUserOf(const util::FileSystem& fs, const std::string& path,
                        const std::string& user, const std::string& ca_pem);

}  // namespace kkadm::phases
