// Reading the configuration a cluster stores for its nodes: the ClusterConfiguration of the
// kubeadm-config ConfigMap and the KubeletConfiguration of the kubelet-config ConfigMap.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::config {

// The one ClusterConfiguration document of `yaml` (v1beta3 or v1beta4), decoded leniently (unknown
// fields are logged, not fatal) and defaulted. InvalidArgument naming `origin` when the YAML does
// not parse or holds no ClusterConfiguration.
Result<ClusterConfiguration> ClusterConfigurationFromYaml(const std::string& yaml,
                                                          const std::string& origin);

// The KubeletConfiguration document of `yaml` as JSON. InvalidArgument naming `origin` when the
// YAML does not parse or holds no kubelet.config.k8s.io/v1beta1 KubeletConfiguration.
Result<nlohmann::json> KubeletConfigurationFromYaml(const std::string& yaml,
                                                    const std::string& origin);

}  // namespace kkadm::config
