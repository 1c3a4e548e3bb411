// What `kkadm upgrade plan` prints: kubeadm's text tables, or its UpgradePlan document
// (output.kubeadm.k8s.io/v1alpha3) for -o json|yaml.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/phases/upgrade/plan.h"

namespace kkadm::phases::upgrade {

// Per upgrade: the kubelet table when a kubelet is not at the target (kubeadm's "Components that
// must be upgraded manually ..."), the control-plane table ("kubeadm" rows hidden), the apply
// command (with --allow-release-candidate-upgrades / --allow-experimental-upgrades for a pre-
// release), the Note when kkadm is older than the target, 69 underscores. Then the component
// config table, or "No information available on component configs.".
std::string PlanText(const std::vector<AvailableUpgrade>& upgrades,
                     const std::vector<ConfigVersion>& configs);

// kind UpgradePlan: availableUpgrades[] {description, components[] {name, nodeName (omitted when
// empty), currentVersion, newVersion}}, configVersions[] {group, currentVersion,
// preferredVersion, manualUpgradeRequired} (versions omitted when unknown).
nlohmann::ordered_json PlanDocument(const std::vector<AvailableUpgrade>& upgrades,
                                    const std::vector<ConfigVersion>& configs);

}  // namespace kkadm::phases::upgrade
