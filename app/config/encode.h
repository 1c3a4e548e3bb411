// Encoding of the internal configuration as kubeadm.k8s.io/v1beta4 YAML documents, keys sorted and
// empty optional fields omitted as kubeadm's `config print` output does.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/config/types.h"

namespace kkadm::config {

// One document each (no leading/trailing "---"). Token secrets are printed as they are: callers
// printing defaults pass kubeadm's example token.
std::string EncodeInitConfiguration(const InitConfiguration& cfg);
std::string EncodeClusterConfiguration(const ClusterConfiguration& cfg);
std::string EncodeJoinConfiguration(const JoinConfiguration& cfg);
std::string EncodeResetConfiguration(const ResetConfiguration& cfg);
// kubeadm's defaulted UpgradeConfiguration (kkadm has no upgrade command and no internal type for
// it; `config print upgrade-defaults` shows kubeadm's document).
std::string EncodeUpgradeDefaults();
// The same documents before they are printed: config_fields.h flattens these (printing and
// reading back would cost a run's journal more than its records).
nlohmann::json InitConfigurationJson(const InitConfiguration& cfg);
nlohmann::json ClusterConfigurationJson(const ClusterConfiguration& cfg);
nlohmann::json JoinConfigurationJson(const JoinConfiguration& cfg);
// A pass-through component configuration document; "" when it is null.
std::string EncodeComponentConfig(const nlohmann::json& doc);

}  // namespace kkadm::config
