// ClusterConfiguration and KubeletConfiguration from the ConfigMaps a cluster stores them in.
#include "app/config/load_cluster.h"

#include <spdlog/spdlog.h>

#include "app/config/defaults.h"
#include "app/config/load.h"

namespace kkadm::config {
namespace {

Result<LoadedDocuments> Load(const std::string& yaml, const std::string& origin) {
  auto docs = LoadDocuments(ConfigSource{origin, yaml}, /*strict=*/false);
  if (!docs) return docs.error();
  for (const std::string& warning : docs->warnings) spdlog::debug("{}", warning);
  return docs;
}

}  // namespace

Result<ClusterConfiguration> ClusterConfigurationFromYaml(const std::string& yaml,
                                                          const std::string& origin) {
  auto docs = Load(yaml, origin);
  if (!docs) return docs.error();
  if (!docs->cluster) return InvalidArgument(origin + ": no ClusterConfiguration document found");
  ClusterConfiguration cluster = std::move(docs->cluster->cfg);
  SetClusterDefaults(cluster);
  return cluster;
}

Result<nlohmann::json> KubeletConfigurationFromYaml(const std::string& yaml,
                                                    const std::string& origin) {
  auto docs = Load(yaml, origin);
  if (!docs) return docs.error();
  if (docs->component_configs.kubelet.is_null()) {
    return InvalidArgument(origin +
                           ": no kubelet.config.k8s.io/v1beta1 KubeletConfiguration found");
  }
  return std::move(docs->component_configs.kubelet);
}

}  // namespace kkadm::config
