// kubeadm's upgrade version skew policy (see policy.h).
#include "app/phases/upgrade/policy.h"

#include <fmt/format.h>

#include "app/util/strings.h"

namespace kkadm::phases::upgrade {
namespace {

using preflight::ParseSemVer;
using preflight::SemVer;

std::vector<std::string> DotParts(const std::string& text) {
  std::vector<std::string> parts(1);
  for (char c : text) {
    if (c == '.')
      parts.emplace_back();
    else
      parts.back() += c;
  }
  return parts;
}

// Dot-separated pre-release identifiers compared as semver 2.0 says: numbers numerically and
// before words, words in ASCII order, a shorter list first when it is a prefix of the other.
int ComparePreRelease(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return a.empty() - b.empty();
  std::vector<std::string> x = DotParts(a), y = DotParts(b);
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    auto numeric = [](const std::string& s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    };
    bool nx = numeric(x[i]), ny = numeric(y[i]);
    if (nx && ny && x[i].size() != y[i].size()) return x[i].size() < y[i].size() ? -1 : 1;
    if (nx != ny) return nx ? -1 : 1;
    if (int c = x[i].compare(y[i]); c != 0) return c < 0 ? -1 : 1;
  }
  return x.size() == y.size() ? 0 : (x.size() < y.size() ? -1 : 1);
}

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

// kubeadm's detectUnstableVersionError.
void CheckUnstable(const SemVer& target, const PolicyInput& in, VersionSkewErrors& out) {
  std::string pre = PreRelease(target);
  if (pre.empty() || in.allow_experimental) return;
  if (pre.rfind("rc", 0) == 0 && in.allow_rc) return;
  out.skippable.push_back(fmt::format(
      "Specified version to upgrade to {} is an unstable version and such upgrades weren't "
      "allowed via setting the --allow-*-upgrades flags",
      Quoted(in.target)));
}

// kubeadm's detectTooOldKubelets: every version that would fall more than 3 minors behind.
void CheckKubelets(const SemVer& target, const PolicyInput& in, VersionSkewErrors& out) {
  std::vector<std::string> too_old;
  for (const std::string& text : in.kubelet_versions) {
    std::optional<SemVer> kubelet = ParseSemVer(text);
    if (!kubelet) {
      out.skippable.push_back("couldn't parse kubelet version " + text);
      return;
    }
    if (target.minor > kubelet->minor + kMaxMinorKubeletSkew) too_old.push_back(text);
  }
  if (too_old.empty()) return;
  out.skippable.push_back(
      "There are kubelets in this cluster that are too old that have these versions [" +
      util::Join(too_old, " ") + "]");
}

// The checks of the target's minor against the cluster's and the tool's.
void CheckMinors(const SemVer& target, const SemVer& cluster, const SemVer& tool,
                 const PolicyInput& in, VersionSkewErrors& out) {
  // Pre-releases may jump further, with --force.
  auto& severity = PreRelease(target).empty() ? out.mandatory : out.skippable;
  if (target.minor > cluster.minor + kMaxMinorUpgradeSkew) {
    severity.push_back(fmt::format(
        "Specified version to upgrade to {} is too high; kkadm can upgrade only {} minor version "
        "at a time",
        Quoted(in.target), kMaxMinorUpgradeSkew));
  }
  if (target.minor < cluster.minor - kMaxMinorDowngradeSkew) {
    severity.push_back(fmt::format(
        "Specified version to downgrade to {} is too low; kkadm can downgrade only {} minor "
        "version at a time",
        Quoted(in.target), kMaxMinorDowngradeSkew));
  }
  if (in.offered) return;
  if (CompareSemVer(tool, target) < 0) {
    if (target.minor > tool.minor) {
      severity.push_back(fmt::format(
          "Specified version to upgrade to {} is at least one minor release higher than the kkadm "
          "minor release ({} > {}). Such an upgrade is not supported",
          Quoted(in.target), target.minor, tool.minor));
    } else {
      out.skippable.push_back(fmt::format(
          "Specified version to upgrade to {} is higher than the kkadm version {}. Upgrade kkadm "
          "first using the tool you used to install kkadm",
          Quoted(in.target), Quoted(in.tool_version)));
    }
  }
  if (tool.major > target.major || tool.minor > target.minor) {
    out.skippable.push_back(
        fmt::format("kkadm version {} can only be used to upgrade to Kubernetes version {}.{}",
                    in.tool_version, tool.major, tool.minor));
  }
}

Result<SemVer> Parse(const std::string& text, const char* what) {
  std::optional<SemVer> v = ParseSemVer(text);
  if (!v)
    return InvalidArgument(fmt::format("{} {} is not a semantic version", what, Quoted(text)));
  return *v;
}

}  // namespace

int CompareSemVer(const SemVer& a, const SemVer& b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  if (a.minor != b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch != b.patch) return a.patch < b.patch ? -1 : 1;
  return ComparePreRelease(PreRelease(a), PreRelease(b));
}

std::string PreRelease(const SemVer& v) {
  if (v.rest.empty() || v.rest[0] != '-') return "";
  return v.rest.substr(
      1, v.rest.find('+') == std::string::npos ? std::string::npos : v.rest.find('+') - 1);
}

std::string MinimumControlPlaneVersion(const std::string& tool_version) {
  std::optional<SemVer> tool = ParseSemVer(tool_version);
  if (!tool) return "";
  return fmt::format("v{}.{}.0", tool->major, tool->minor - 1);
}

Result<VersionSkewErrors> EnforceVersionPolicies(const PolicyInput& in) {
  auto target = Parse(in.target, "the version to upgrade to");
  if (!target) return target.error();
  auto cluster = Parse(in.cluster_version, "the cluster version");
  if (!cluster) return cluster.error();
  auto tool = Parse(in.tool_version, "the kkadm version");
  if (!tool) return tool.error();
  VersionSkewErrors out;
  const std::string minimum = MinimumControlPlaneVersion(in.tool_version);
  if (CompareSemVer(*target, *ParseSemVer(minimum)) < 0) {
    out.mandatory.push_back(fmt::format(
        "Specified version to upgrade to {} is equal to or lower than the minimum supported "
        "version {}. Please specify a higher version to upgrade to",
        Quoted(in.target), Quoted(minimum)));
  }
  CheckMinors(*target, *cluster, *tool, in, out);
  CheckUnstable(*target, in, out);
  CheckKubelets(*target, in, out);
  return out;
}

Status PolicyVerdict(const VersionSkewErrors& errors, bool force) {
  auto list = [](const std::vector<std::string>& errs) {
    std::string text;
    for (const std::string& e : errs) text += " - " + e + ";";
    return text;
  };
  if (!errors.mandatory.empty()) {
    return FailedPrecondition(
        "[upgrade/version] FATAL: the version argument is invalid due to these fatal errors:" +
        list(errors.mandatory) +
        " Please fix the misalignments highlighted above and try "
        "upgrading again");
  }
  if (!errors.skippable.empty() && !force) {
    return FailedPrecondition(
        "[upgrade/version] FATAL: the version argument is invalid due to these errors:" +
        list(errors.skippable) + " Can be bypassed if you pass the --force flag");
  }
  return Status::Ok();
}

}  // namespace kkadm::phases::upgrade
