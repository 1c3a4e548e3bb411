// `kkadm upgrade plan` (see upgrade_plan.h).
#include "cmd/upgrade_plan.h"

#include "app/phases/upgrade/plan.h"
#include "app/phases/upgrade/plan_output.h"
#include "app/phases/upgrade/policy.h"
#include "app/util/network.h"
#include "app/util/yaml/yaml.h"
#include "build_info.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

namespace upg = phases::upgrade;

// The targets of this run: the version argument's, or those kkadm looks up.
Result<std::vector<upg::Target>> PlanTargets(const UpgradePlanOptions& options,
                                             const std::string& cluster_version,
                                             const config::ReleaseVersionSource& releases,
                                             std::ostream& log) {
  if (!options.version.empty()) {
    auto target = upg::ExplicitTarget(cluster_version, options.version, releases);
    if (!target) return target.error();
    log << "[upgrade/versions] Target version: " << target->version << "\n";
    return std::vector<upg::Target>{*target};
  }
  auto targets = upg::AvailableTargets(cluster_version, releases);
  if (!targets) return targets.error();
  for (const upg::Target& t : *targets) {
    log << "[upgrade/versions] Latest " << t.description << ": " << t.version << "\n";
  }
  return targets;
}

// Each target against kubeadm's version skew policy; the first refusal ends the plan.
Status CheckTargets(const UpgradePlanOptions& options, const upg::ClusterVersions& cluster,
                    const std::vector<upg::Target>& targets) {
  upg::PolicyInput in{.cluster_version = cluster.api_server,
                      .tool_version = build_info::kKubernetesVersion,
                      .kubelet_versions = {},
                      .target = "",
                      .allow_experimental = options.allow_experimental,
                      .allow_rc = options.allow_rc,
                      .offered = options.version.empty()};
  for (const upg::NodeVersion& k : cluster.kubelets) in.kubelet_versions.push_back(k.version);
  for (const upg::Target& target : targets) {
    in.target = target.version;
    auto errors = upg::EnforceVersionPolicies(in);
    if (!errors) return errors.error();
    KKADM_RETURN_IF_ERROR(upg::PolicyVerdict(*errors, options.force));
  }
  return Status::Ok();
}

Status PrintPlan(const UpgradePlanOptions& options,
                 const std::vector<upg::AvailableUpgrade>& upgrades,
                 const std::vector<upg::ConfigVersion>& configs, std::ostream& out) {
  if (options.output == "json") {
    out << upg::PlanDocument(upgrades, configs).dump(4) << "\n";
  } else if (options.output == "yaml") {
    out << util::yaml::Emit(upg::PlanDocument(upgrades, configs));
  } else {
    out << "\n" << upg::PlanText(upgrades, configs);
  }
  return Status::Ok();
}

}  // namespace

Status RunUpgradePlan(const UpgradePlanOptions& options, util::KubeClient& client,
                      const config::ReleaseVersionSource& releases, std::ostream& out,
                      std::ostream& err) {
  std::ostream& log = options.output == "text" ? out : err;
  log << "[upgrade] Running cluster health checks\n";
  auto cluster = upg::ReadClusterVersions(client);
  if (!cluster) return cluster.error();
  KKADM_RETURN_IF_ERROR(upg::CheckControlPlaneNodesReady(*cluster));
  log << "[upgrade] Fetching available versions to upgrade to\n"
      << "[upgrade/versions] Cluster version: " << cluster->api_server << "\n"
      << "[upgrade/versions] kkadm version: " << build_info::kKubernetesVersion << "\n";
  auto targets = PlanTargets(options, cluster->api_server, releases, log);
  if (!targets) return targets.error();
  KKADM_RETURN_IF_ERROR(CheckTargets(options, *cluster, *targets));
  std::vector<upg::AvailableUpgrade> upgrades;
  for (const upg::Target& target : *targets) {
    upgrades.push_back(
        upg::PlanUpgrade(*cluster, target, build_info::kKubernetesVersion, options.etcd_upgrade));
  }
  return PrintPlan(options, upgrades, cluster->configs, out);
}

void AddUpgradeCommand(CLI::App& root, CommandContext& context, HostProvider host) {
  auto* upgrade =
      root.add_subcommand("upgrade", "Upgrade your cluster smoothly to a newer version");
  upgrade->require_subcommand(1);
  auto options = std::make_shared<UpgradePlanOptions>();
  auto* plan = upgrade->add_subcommand(
      "plan",
      "Check which versions are available to upgrade to and validate whether your current "
      "cluster is upgradeable.");
  plan->fallthrough();
  plan->add_option("version", options->version, "The version to check instead of looking it up");
  plan->add_option("-o,--output", options->output, "Output format. One of: text|json|yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}))
      ->capture_default_str();
  plan->add_option("--kubeconfig", options->kubeconfig,
                   "The kubeconfig file to use when talking to the cluster")
      ->capture_default_str();
  plan->add_flag("--allow-experimental-upgrades", options->allow_experimental,
                 "Show unstable versions of Kubernetes as an upgrade alternative and allow "
                 "upgrading to an alpha/beta/release candidate versions of Kubernetes.");
  plan->add_flag("--allow-release-candidate-upgrades", options->allow_rc,
                 "Show release candidate versions of Kubernetes as an upgrade alternative and "
                 "allow upgrading to a release candidate versions of Kubernetes.");
  plan->add_flag("--etcd-upgrade", options->etcd_upgrade, "Perform the upgrade of etcd.")
      ->capture_default_str();
  plan->add_flag("-f,--force", options->force,
                 "Plan even when the version skew policy's skippable checks fail.");
  auto shared = std::make_shared<HostProvider>(std::move(host));
  plan->callback([&context, options, shared] {
    Result<util::Host*> node = (*shared)();
    if (!node) {
      context.status = node.error();
      return;
    }
    auto client = util::KubeClientFromKubeconfigFile((*node)->net, (*node)->fs, options->kubeconfig,
                                                     {.clock = (*node)->clock});
    context.status = client ? RunUpgradePlan(*options, **client, context.release_versions,
                                             context.out, context.err)
                            : client.error();
  });
}

}  // namespace kkadm::cmd
