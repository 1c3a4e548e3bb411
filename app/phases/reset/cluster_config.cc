// kubeadm-config ConfigMap -> defaulted ClusterConfiguration.
#include "app/phases/reset/cluster_config.h"

#include "app/config/defaults.h"
#include "app/config/load.h"
#include "app/util/kube_paths.h"

namespace kkadm::phases::reset {

Result<config::ClusterConfiguration> FetchClusterConfiguration(util::KubeClient& client) {
  const std::string path = util::ResourcePath("v1", "configmaps", "kube-system", "kubeadm-config");
  Result<nlohmann::json> config_map = client.Get(path);
  if (!config_map) return config_map.error().Wrap("failed to get config map");
  const nlohmann::json data = config_map->value("data", nlohmann::json::object());
  auto text = data.find("ClusterConfiguration");
  if (text == data.end() || !text->is_string()) {
    return NotFound(
        "unexpected error when reading kubeadm-config ConfigMap: ClusterConfiguration key value "
        "pair missing");
  }
  config::ConfigSource source{"ConfigMap kube-system/kubeadm-config", text->get<std::string>()};
  Result<config::LoadedDocuments> docs = config::LoadDocuments(source, /*strict=*/false);
  if (!docs) return docs.error();
  if (!docs->cluster)
    return NotFound("ConfigMap kube-system/kubeadm-config holds no ClusterConfiguration");
  config::ClusterConfiguration cluster = std::move(docs->cluster->cfg);
  config::SetClusterDefaults(cluster);
  return cluster;
}

}  // namespace kkadm::phases::reset
