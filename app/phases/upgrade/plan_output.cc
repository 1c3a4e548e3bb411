// kubeadm's printers of an upgrade plan (cmd/upgrade/plan.go), with kkadm's name in the commands
// it suggests (see plan_output.h).
#include "app/phases/upgrade/plan_output.h"

#include <fmt/format.h>

#include "app/phases/upgrade/policy.h"
#include "app/util/tab_writer.h"

namespace kkadm::phases::upgrade {
namespace {

using Rows = std::vector<std::vector<std::string>>;

constexpr char kSeparator[] =
    "_____________________________________________________________________\n\n";

// kubeadm's CanUpgradeKubelets: some kubelet is not at the target.
bool KubeletsToUpgrade(const AvailableUpgrade& upgrade) {
  for (const ComponentUpgrade& c : upgrade.components) {
    if (c.name == "kubelet" && c.current != c.target) return true;
  }
  return false;
}

std::string ApplyFlags(const std::string& version) {
  std::optional<preflight::SemVer> v = preflight::ParseSemVer(version);
  std::string pre = v ? PreRelease(*v) : "";
  if (pre.empty()) return "";
  return pre.rfind("rc", 0) == 0 ? " --allow-release-candidate-upgrades"
                                 : " --allow-experimental-upgrades";
}

std::string UpgradeText(const AvailableUpgrade& upgrade) {
  std::string out;
  Rows kubelets = {{"COMPONENT", "NODE", "CURRENT", "TARGET"}};
  Rows others = kubelets;
  std::string target, tool_current, tool_target;
  for (const ComponentUpgrade& c : upgrade.components) {
    if (c.name == "kubeadm") {
      tool_current = c.current, tool_target = c.target;
      continue;
    }
    (c.name == "kubelet" ? kubelets : others).push_back({c.name, c.node, c.current, c.target});
    if (c.name == "kube-apiserver") target = c.target;
  }
  if (KubeletsToUpgrade(upgrade)) {
    out +=
        "Components that must be upgraded manually after you have upgraded the control plane "
        "with 'kkadm upgrade apply':\n" +
        util::TabWrite(kubelets) + "\n";
  }
  out += "Upgrade to the latest " + upgrade.description + ":\n\n" + util::TabWrite(others) + "\n";
  out +=
      "You can now apply the upgrade by executing the following command:\n\n\tkkadm upgrade "
      "apply " +
      target + ApplyFlags(target) + "\n\n";
  if (tool_current != tool_target) {
    out += "Note: Before you can perform this upgrade, you have to update kkadm to " + tool_target +
           ".\n\n";
  }
  return out + kSeparator;
}

std::string ConfigText(const std::vector<ConfigVersion>& configs) {
  if (configs.empty()) return "No information available on component configs.\n";
  Rows rows = {{"API GROUP", "CURRENT VERSION", "PREFERRED VERSION", "MANUAL UPGRADE REQUIRED"}};
  for (const ConfigVersion& c : configs) {
    rows.push_back({c.group, c.current.empty() ? "-" : c.current,
                    c.preferred.empty() ? "-" : c.preferred,
                    c.manual_upgrade_required ? "yes" : "no"});
  }
  return "The table below shows the current state of component configs as understood by this "
         "version of kkadm.\nConfigs that have a \"yes\" mark in the \"MANUAL UPGRADE REQUIRED\" "
         "column require manual config upgrade or\nresetting to kkadm defaults before a successful "
         "upgrade can be performed. The version to manually\nupgrade to is denoted in the "
         "\"PREFERRED VERSION\" column.\n\n" +
         util::TabWrite(rows) + kSeparator;
}

}  // namespace

std::string PlanText(const std::vector<AvailableUpgrade>& upgrades,
                     const std::vector<ConfigVersion>& configs) {
  std::string out;
  for (const AvailableUpgrade& upgrade : upgrades) out += UpgradeText(upgrade);
  return out + ConfigText(configs);
}

nlohmann::ordered_json PlanDocument(const std::vector<AvailableUpgrade>& upgrades,
                                    const std::vector<ConfigVersion>& configs) {
  using nlohmann::ordered_json;
  ordered_json doc = {{"kind", "UpgradePlan"}, {"apiVersion", "output.kubeadm.k8s.io/v1alpha3"}};
  ordered_json available = ordered_json::array();
  for (const AvailableUpgrade& upgrade : upgrades) {
    ordered_json components = ordered_json::array();
    for (const ComponentUpgrade& c : upgrade.components) {
      ordered_json row = {{"name", c.name}};
      if (!c.node.empty()) row["nodeName"] = c.node;
      row["currentVersion"] = c.current;
      row["newVersion"] = c.target;
      components.push_back(std::move(row));
    }
    available.push_back({{"description", upgrade.description}, {"components", components}});
  }
  doc["availableUpgrades"] = std::move(available);
  ordered_json versions = ordered_json::array();
  for (const ConfigVersion& c : configs) {
    ordered_json row = {{"group", c.group}};
    if (!c.current.empty()) row["currentVersion"] = c.current;
    if (!c.preferred.empty()) row["preferredVersion"] = c.preferred;
    row["manualUpgradeRequired"] = c.manual_upgrade_required;
    versions.push_back(std::move(row));
  }
  doc["configVersions"] = std::move(versions);
  return doc;
}

}  // namespace kkadm::phases::upgrade
