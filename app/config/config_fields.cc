// The fields of a configuration, read back from its printed documents.
#include "app/config/config_fields.h"

#include "app/config/encode.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::config {
namespace {

// `yaml` (one document kkadm printed) flattened, without apiVersion and kind.
void AddDocument(const std::string& yaml, const std::string& prefix,
                 std::vector<util::JsonField>& fields) {
  Result<nlohmann::json> doc = util::yaml::Read(yaml);
  if (!doc || !doc->is_object()) return;  // kkadm's own output always reads back
  doc->erase("apiVersion");
  doc->erase("kind");
  for (auto& field : util::FlattenJson(*doc, prefix)) fields.push_back(std::move(field));
}

void AddComponentConfigs(const ComponentConfigs& configs, std::vector<util::JsonField>& fields) {
  if (!configs.kubelet.is_null()) {
    AddDocument(EncodeComponentConfig(configs.kubelet), "KubeletConfiguration", fields);
  }
  if (!configs.kube_proxy.is_null()) {
    AddDocument(EncodeComponentConfig(configs.kube_proxy), "KubeProxyConfiguration", fields);
  }
}

}  // namespace

std::vector<util::JsonField> InitConfigFields(const InitConfiguration& cfg) {
  std::vector<util::JsonField> fields;
  AddDocument(EncodeInitConfiguration(cfg), "", fields);
  AddDocument(EncodeClusterConfiguration(cfg.cluster), "", fields);
  AddComponentConfigs(cfg.component_configs, fields);
  return fields;
}

std::vector<util::JsonField> JoinConfigFields(const JoinConfiguration& cfg) {
  std::vector<util::JsonField> fields;
  AddDocument(EncodeJoinConfiguration(cfg), "", fields);
  AddComponentConfigs(cfg.component_configs, fields);
  return fields;
}

bool IsSecretField(std::string_view name) {
  return name == "certificateKey" || name == "controlPlane.certificateKey" ||
         name == "discovery.bootstrapToken.token" || name == "discovery.tlsBootstrapToken" ||
         (name.starts_with("bootstrapTokens[") && name.ends_with("].token"));
}

}  // namespace kkadm::config
