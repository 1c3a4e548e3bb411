// The pre-flight checks of a control-plane node (kubeadm's InitNodeChecks): `kkadm init`'s, and
// those of a node that joins the control plane.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/own_work.h"
#include "app/phases/preflight/check.h"
#include "app/phases/preflight/checks_cri.h"
#include "app/util/printer.h"
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
  // The CRI check's wait for the runtime's socket, its output, the kubelet's cgroup driver.
  CriCheckOptions cri;
};

// kubeadm's init check list, in kubeadm's order, for a validated config: machine size, versions,
// control-plane ports, manifest files, proxies, the common node checks (CRI, swap, binaries,
// hostname, kubelet service, kubelet port), IP forwarding, and the etcd checks. Not included:
// SystemVerification, KubeletVersion, ExternalEtcdVersion and ImagePull (no kernel validator,
// kubelet binary, etcd client or container runtime is used here).
CheckList InitNodeChecks(const config::InitConfiguration& cfg, const NodeCheckOptions& options);

// kubeadm's addCommonChecks, appended to `checks`: CRI, Swap, the binaries (conntrack only for a
// `kubernetes_version` before v1.32), Hostname, Service-Kubelet, Port-10250. `cri` configures
// the CRI check.
void AddCommonChecks(const config::NodeRegistration& node, const std::string& kubernetes_version,
                     CheckList& checks, const CriCheckOptions& cri = {});

// Where kkadm's own work on a node would show in its checks.
struct OwnWorkPlaces {
  std::string manifest_dir;        // static pod manifests: a manifest's pod owns its ports
  std::string kubelet_kubeconfig;  // written by the kubelet's TLS bootstrap, once kkadm starts it
  int apiserver_port = 6443;       // the API server's bind port
};

// The names of the checks that only kkadm's own recorded work fails, when repeated or resumed:
// FileAvailable of a file it wrote, DirAvailable of a directory it made, the Port of a static pod
// whose manifest it wrote (the API server's, 10257, 10259; etcd's 2379 and 2380), and the Port
// and kubeconfig of the kubelet it started.
std::set<std::string> ChecksFailedByOwnWork(const OwnWork& own, const OwnWorkPlaces& places);

// Removes from `checks` those ChecksFailedByOwnWork names and, when there are any, says so:
// "[preflight] Leaving out the checks that only kkadm's own earlier work on this node fails
// (recorded in /var/lib/kkadm/journal): Port-6443, ...".
void LeaveOutChecksOfOwnWork(CheckList& checks, const OwnWork& own, const OwnWorkPlaces& places,
                             util::Printer& out);

}  // namespace kkadm::phases::preflight
