// The pre-flight work of `kkadm join` (kubeadm's phases/join/preflight.go and RunJoinNodeChecks),
// with discovery in the middle. Knows nothing of the workflow engine.
#pragma once

#include <string>

#include "app/config/types.h"
#include "app/phases/join/join_data.h"
#include "app/phases/join/join_leftovers.h"
#include "app/phases/preflight/check.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

// kubeadm's JoinNodeChecks, in its order: FileAvailable for kubelet.conf and
// bootstrap-kubelet.conf, the common node checks, FileAvailable for caCertPath (workers), and for
// token discovery HTTPProxy and IP forwarding for the endpoint's host.
preflight::CheckList JoinNodeChecks(const JoinData& data);

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

// The whole preflight phase: "[preflight] Running pre-flight checks", the root check alone, the
// join node checks (those an unfinished join of this node would fail are skipped, with a line
// saying so), discovery, the check that such leftovers belong to the discovered cluster, the Node
// check, and for a control-plane join CheckReadyForControlPlane and the init checks of a secondary
// control-plane node. Changes nothing on the node. Sets data.preflight_checks_failed when a check
// (not discovery) failed.
Status RunJoinPreflight(JoinData& data);

}  // namespace kkadm::phases
