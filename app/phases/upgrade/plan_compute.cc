// The versions `kkadm upgrade plan` offers and the component rows of each (see plan.h); kubeadm's
// phases/upgrade/compute.go.
#include <fmt/format.h>

#include "app/config/images.h"
#include "app/phases/upgrade/plan.h"
#include "app/phases/upgrade/policy.h"

namespace kkadm::phases::upgrade {
namespace {

using preflight::ParseSemVer;
using preflight::SemVer;

Result<SemVer> ParseVersion(const std::string& text) {
  std::optional<SemVer> v = ParseSemVer(text);
  if (!v) return InvalidArgument(fmt::format("version \"{}\" is not a semantic version", text));
  return *v;
}

std::string SeriesDescription(const SemVer& v) {
  return fmt::format("version in the v{}.{} series", v.major, v.minor);
}

void AddControlPlaneRows(const ClusterVersions& cluster, const std::string& target,
                         std::vector<ComponentUpgrade>& rows) {
  for (const auto& [component, versions] : cluster.control_plane) {
    for (const NodeVersion& v : versions) rows.push_back({component, v.node, v.version, target});
  }
}

}  // namespace

Result<std::vector<Target>> AvailableTargets(const std::string& cluster_version,
                                             const config::ReleaseVersionSource& source) {
  auto cluster = ParseVersion(cluster_version);
  if (!cluster) return cluster.error();
  auto stable_text = config::ResolveVersionLabel("stable", source);
  if (!stable_text) return stable_text.error();
  auto stable = ParseVersion(*stable_text);
  if (!stable) return stable.error();
  std::vector<Target> targets;
  bool minor_upgrade = CompareSemVer(*cluster, *stable) < 0;
  if (CompareSemVer(*stable, *cluster) >= 0) {
    auto patch_text = config::ResolveVersionLabel(
        fmt::format("stable-{}.{}", cluster->major, cluster->minor), source);
    if (!patch_text) return patch_text.error();
    auto patch = ParseVersion(*patch_text);
    if (!patch) return patch.error();
    // Offline the label falls back to kkadm's own version, of another minor: no patch of this one.
    if (patch->minor == cluster->minor) {
      minor_upgrade = CompareSemVer(*patch, *stable) < 0;
      if (CompareSemVer(*cluster, *patch) < 0) {
        targets.push_back({SeriesDescription(*cluster), *patch_text});
      }
    }
  }
  if (minor_upgrade) targets.push_back({"stable version", *stable_text});
  return targets;
}

Result<Target> ExplicitTarget(const std::string& cluster_version, const std::string& version,
                              const config::ReleaseVersionSource& source) {
  auto cluster = ParseVersion(cluster_version);
  if (!cluster) return cluster.error();
  auto resolved = config::ResolveVersionLabel(version, source);
  if (!resolved) return resolved.error();
  std::optional<SemVer> target = ParseSemVer(*resolved);
  if (!target || resolved->front() != 'v') {
    return InvalidArgument(fmt::format(
        "the version argument \"{}\" is no Kubernetes version (such as v1.32.0) or label",
        version));
  }
  std::string pre = PreRelease(*target);
  if (pre.rfind("rc", 0) == 0) return Target{"release candidate version", *resolved};
  if (!pre.empty()) return Target{"experimental version", *resolved};
  if (target->minor == cluster->minor) return Target{SeriesDescription(*target), *resolved};
  return Target{"stable version", *resolved};
}

AvailableUpgrade PlanUpgrade(const ClusterVersions& cluster, const Target& target,
                             const std::string& tool_version, bool etcd_upgrade) {
  AvailableUpgrade upgrade{target.description, {}};
  auto& rows = upgrade.components;
  for (const NodeVersion& k : cluster.kubelets) {
    rows.push_back({"kubelet", k.node, k.version, target.version});
  }
  AddControlPlaneRows(cluster, target.version, rows);
  if (!cluster.kube_proxy.empty()) {
    rows.push_back({"kube-proxy", "", cluster.kube_proxy, target.version});
  }
  if (!cluster.coredns.empty()) {
    rows.push_back({"CoreDNS", "", cluster.coredns, config::kCoreDNSVersion});
  }
  // Offered with a target newer than kkadm: "update kubeadm first" (kubeadm's Note).
  std::optional<SemVer> tool = ParseSemVer(tool_version), to = ParseSemVer(target.version);
  bool tool_too_old = tool && to && CompareSemVer(*tool, *to) < 0;
  rows.push_back({"kubeadm", "", tool_version, tool_too_old ? target.version : tool_version});
  if (etcd_upgrade) {
    const std::string etcd = config::EtcdVersionFor(target.version);
    for (const NodeVersion& e : cluster.etcd) rows.push_back({"etcd", e.node, e.version, etcd});
  }
  return upgrade;
}

}  // namespace kkadm::phases::upgrade
