// Reading the cluster's ClusterConfiguration back from the kubeadm-config ConfigMap, as
// `kkadm reset` does before it starts (kubeadm's FetchInitConfigurationFromCluster, cluster part).
#pragma once

#include "app/config/types.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases::reset {

// GET kube-system/kubeadm-config, decode data.ClusterConfiguration (v1beta3 or v1beta4) and apply
// kubeadm's defaults. Errors: the client's (the API server may be gone), NotFound when the
// ConfigMap has no ClusterConfiguration, InvalidArgument when it does not decode.
Result<config::ClusterConfiguration> FetchClusterConfiguration(util::KubeClient& client);

}  // namespace kkadm::phases::reset
