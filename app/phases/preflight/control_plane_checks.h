// The pre-flight checks of a control-plane node (kubeadm's InitNodeChecks): `kkadm init`'s, and
// those of a node that joins the control plane.
#pragma once

#include <string>

#include "app/config/types.h"
#include "app/phases/preflight/check.h"
#include "app/util/status.h"

namespace kkadm::phases::preflight {

// Where a control-plane node's checks run: a first control-plane node (`kkadm init`) or one that
// joins (`kkadm join --control-plane`).
struct NodeCheckOptions {
  std::string manifest_dir = "/etc/kubernetes/manifests";
  // A joining control-plane node: its join checks already covered the common node checks, so
  // these, IP forwarding and the external etcd version are left out (kubeadm's
  // isSecondaryControlPlane).
  bool secondary_control_plane = false;
  // A joining control-plane node that downloads the certificates: external etcd's certificate
  // files are not checked, they come with the download.
  bool download_certs = false;
};

// kubeadm's init check list, in kubeadm's order, for a validated config: machine size, versions,
// control-plane ports, manifest files, proxies, the common node checks (CRI, swap, binaries,
// hostname, kubelet service, kubelet port), IP forwarding, and the etcd checks. Not included:
// SystemVerification, KubeletVersion, ExternalEtcdVersion and ImagePull (no kernel validator,
// kubelet binary, etcd client or container runtime is used here).
CheckList InitNodeChecks(const config::InitConfiguration& cfg, const NodeCheckOptions& options);

// kubeadm's addCommonChecks, appended to `checks`: CRI, Swap, the binaries (conntrack only for a
// `kubernetes_version` before v1.32), Hostname, Service-Kubelet, Port-10250.
void AddCommonChecks(const config::NodeRegistration& node, const std::string& kubernetes_version,
                     CheckList& checks);

}  // namespace kkadm::phases::preflight
