// kubeadm's version skew policy for upgrades (phases/upgrade/policy.go EnforceVersionPolicies):
// which target versions a cluster may move to, given its API server's version, the tool's own
// version and its kubelets' versions. kkadm's name stands where kubeadm prints its own.
#pragma once

#include <string>
#include <vector>

#include "app/phases/preflight/checks_system.h"
#include "app/util/status.h"

namespace kkadm::phases::upgrade {

// kubeadm 1.29+: the control plane moves one minor at a time (up or down), and kubelets may be
// up to 3 minors older than the control plane.
inline constexpr int kMaxMinorUpgradeSkew = 1;
inline constexpr int kMaxMinorDowngradeSkew = 1;
inline constexpr int kMaxMinorKubeletSkew = 3;

struct PolicyInput {
  std::string cluster_version;  // the API server's gitVersion, "v1.31.2"
  std::string tool_version;     // kkadm's Kubernetes version (build_info::kKubernetesVersion)
  std::vector<std::string> kubelet_versions;
  std::string target;  // the version asked for, "v1.32.0"
  bool allow_experimental = false;
  bool allow_rc = false;
  // The target is one kkadm offers itself (plan without a version argument): the checks of the
  // target against kkadm's own version are left out, as the plan says when kkadm must be updated
  // first. The checks against the cluster and its kubelets remain.
  bool offered = false;
};

// kubeadm's VersionSkewPolicyErrors: `mandatory` ones cannot be bypassed, `skippable` ones only
// with --force. Both empty: the target is allowed.
struct VersionSkewErrors {
  std::vector<std::string> mandatory;
  std::vector<std::string> skippable;
  bool empty() const { return mandatory.empty() && skippable.empty(); }
};

// Go's version.Compare for semantic versions: <0, 0 or >0; a pre-release comes before its
// release, build metadata ("+abc") is ignored.
int CompareSemVer(const preflight::SemVer& a, const preflight::SemVer& b);

// The pre-release of a parsed version: "rc.1" for "v1.32.0-rc.1+abc", "" for a release.
std::string PreRelease(const preflight::SemVer& v);

// The minimum control-plane version the tool upgrades from or to: v1.<tool minor - 1>.0.
std::string MinimumControlPlaneVersion(const std::string& tool_version);

// kubeadm's checks, in its order and words. InvalidArgument when the target, the cluster's or the
// tool's version is no semantic version (an unparseable kubelet version is a skippable error).
Result<VersionSkewErrors> EnforceVersionPolicies(const PolicyInput& in);

// The verdict as `kkadm upgrade` reports it, on one line: OK when there are no errors, or only
// skippable ones and `force`; else FailedPrecondition with kubeadm's words ("the version argument
// is invalid due to these fatal errors: - ... Please fix the misalignments highlighted above and
// try upgrading again", or "... due to these errors: - ... Can be bypassed if you pass the --force
// flag").
Status PolicyVerdict(const VersionSkewErrors& errors, bool force);

}  // namespace kkadm::phases::upgrade
