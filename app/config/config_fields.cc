// The fields of a configuration, from its documents as kkadm prints them.
#include "app/config/config_fields.h"

#include "app/config/encode.h"

namespace kkadm::config {
namespace {

// `doc` (one document as kkadm prints it) flattened, without apiVersion and kind.
void AddDocument(nlohmann::json doc, const std::string& prefix,
                 std::vector<util::JsonField>& fields) {
  if (!doc.is_object()) return;
  doc.erase("apiVersion");
  doc.erase("kind");
  for (auto& field : util::FlattenJson(doc, prefix)) fields.push_back(std::move(field));
}

void AddComponentConfigs(const ComponentConfigs& configs, std::vector<util::JsonField>& fields) {
  AddDocument(configs.kubelet, "KubeletConfiguration", fields);
  AddDocument(configs.kube_proxy, "KubeProxyConfiguration", fields);
}

}  // namespace

std::vector<util::JsonField> InitConfigFields(const InitConfiguration& cfg) {
  std::vector<util::JsonField> fields;
  AddDocument(InitConfigurationJson(cfg), "", fields);
  AddDocument(ClusterConfigurationJson(cfg.cluster), "", fields);
  AddComponentConfigs(cfg.component_configs, fields);
  return fields;
}

std::vector<util::JsonField> JoinConfigFields(const JoinConfiguration& cfg) {
  std::vector<util::JsonField> fields;
  AddDocument(JoinConfigurationJson(cfg), "", fields);
  AddComponentConfigs(cfg.component_configs, fields);
  return fields;
}

bool IsSecretField(std::string_view name) {
  return name == "certificateKey" || name == "controlPlane.certificateKey" ||
         name == "discovery.bootstrapToken.token" || name == "discovery.tlsBootstrapToken" ||
         (name.starts_with("bootstrapTokens[") && name.ends_with("].token"));
}

}  // namespace kkadm::config
