// `kkadm upgrade plan`'s model: the versions a cluster runs, read through its API as kubeadm reads
// them (cmd/upgrade/plan.go, phases/upgrade/versiongetter.go and compute.go), the versions it can
// move to, and per target the components' current and new versions.
#pragma once

#include <string>
#include <vector>

#include "app/config/release_version.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases::upgrade {

// A component's version on one node ("" node: a cluster-wide addon).
struct NodeVersion {
  std::string node;
  std::string version;
};

// A component config as the cluster stores it (the kube-proxy and kubelet-config ConfigMaps).
struct ConfigVersion {
  std::string group;      // "kubeproxy.config.k8s.io"
  std::string current;    // "v1alpha1", "" when the ConfigMap is absent or unreadable
  std::string preferred;  // the version kkadm writes
  bool manual_upgrade_required = false;
};

struct ClusterVersions {
  std::string api_server;  // the API server's /version gitVersion
  std::vector<NodeVersion> kubelets;
  std::vector<std::string> not_ready_control_planes;
  // Per control-plane component in kubeadm's order, the image tag of its Pod on each node.
  std::vector<std::pair<std::string, std::vector<NodeVersion>>> control_plane;
  std::vector<NodeVersion> etcd;  // empty: external etcd (no etcd Pods)
  std::string coredns;            // the coredns Deployment's image tag, "" when absent
  std::string kube_proxy;         // the kube-proxy DaemonSet's image tag, "" when absent
  std::vector<ConfigVersion> configs;
};

// kubeadm's control-plane components, in its order.
inline const std::vector<std::string> kControlPlaneComponents = {
    "kube-apiserver", "kube-controller-manager", "kube-scheduler"};

// Reads the cluster as kubeadm's version getter does: /version, the Nodes, the Pods labelled
// component=<c>,tier=control-plane in kube-system (the kubelets' mirror Pods of the static Pods),
// the coredns Deployment and kube-proxy DaemonSet, the component config ConfigMaps. An error when
// the API cannot be read or a control-plane component has no Pod (kubeadm: "cannot find pods for
// component").
Result<ClusterVersions> ReadClusterVersions(util::KubeClient& client);

// kubeadm's ControlPlaneNodesReady health check: FailedPrecondition "there are NotReady
// control-planes in the cluster: [names]".
Status CheckControlPlaneNodesReady(const ClusterVersions& cluster);

struct Target {
  std::string description;  // "version in the v1.31 series", "stable version", ...
  std::string version;
};

// The targets kubeadm's GetAvailableUpgrades offers without a version argument: the latest patch
// of the cluster's minor (label stable-1.<minor>) when newer than the cluster, and the latest
// stable release (label "stable") when newer still. Offline, labels fall back to kkadm's own
// version with kubeadm's warnings; a fallback outside the cluster's minor is no patch release of
// it and is not offered as one.
Result<std::vector<Target>> AvailableTargets(const std::string& cluster_version,
                                             const config::ReleaseVersionSource& source);

// The target of an explicit version argument, described as kubeadm describes it.
Result<Target> ExplicitTarget(const std::string& cluster_version, const std::string& version,
                              const config::ReleaseVersionSource& source);

struct ComponentUpgrade {
  std::string name;
  std::string node;  // "" for addons and the tool itself
  std::string current;
  std::string target;
};

struct AvailableUpgrade {
  std::string description;
  std::vector<ComponentUpgrade> components;  // kubelets first, then kubeadm's table order
};

// The component rows of an upgrade of `cluster` to `target`: a kubelet per node, each control-
// plane component per node, kube-proxy and CoreDNS (when deployed), the tool ("kubeadm", hidden in
// text) and etcd per node when `etcd_upgrade` and etcd is local. `tool_version`: kkadm's
// Kubernetes version.
AvailableUpgrade PlanUpgrade(const ClusterVersions& cluster, const Target& target,
                             const std::string& tool_version, bool etcd_upgrade);

}  // namespace kkadm::phases::upgrade
