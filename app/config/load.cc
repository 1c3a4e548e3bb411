// Dispatch of configuration documents on apiVersion/kind.
#include "app/config/load.h"

#include "app/config/component_check.h"
#include "app/util/printable.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::config {
namespace {

constexpr const char* kGroup = "kubeadm.k8s.io/";
// Ends every DefaultedOrigin; a file's origin ends with "(document N)" instead.
constexpr std::string_view kDefaultedSuffix = " (defaults and flags)";

struct DocInfo {
  std::string api_version;
  std::string kind;
  std::string origin;
};

Status CheckKubeadmVersion(const DocInfo& info, ApiVersion& version) {
  std::string v = info.api_version.substr(std::string(kGroup).size());
  if (v == "v1beta3") {
    version = ApiVersion::kV1beta3;
  } else if (v == "v1beta4") {
    version = ApiVersion::kV1beta4;
  } else {
    return InvalidField(info.origin, "apiVersion", info.api_version,
                        "unsupported kubeadm API version; use kubeadm.k8s.io/v1beta3 "
                        "or kubeadm.k8s.io/v1beta4");
  }
  return Status();
}

template <class T>
Status Store(std::optional<T>& slot, std::string& origin_slot, T value, const DocInfo& info) {
  if (slot) return InvalidArgument(info.origin + ": kind: " + info.kind + " is specified twice");
  slot = std::move(value);
  origin_slot = info.origin;
  return Status();
}

Status UnknownKind(const DocInfo& info, bool strict, LoadedDocuments& out) {
  std::string message = info.origin + ": kind: unknown kind " + util::Quote(info.kind) +
                        " for apiVersion " + util::Quote(info.api_version);
  if (strict) return InvalidArgument(message);
  out.warnings.push_back(message + "; ignored");
  return Status();
}

Status DecodeKubeadm(const Json& doc, const DocInfo& info, bool strict, LoadedDocuments& out) {
  ApiVersion version = ApiVersion::kV1beta4;
  KKADM_RETURN_IF_ERROR(CheckKubeadmVersion(info, version));
  DecodeContext context(info.origin, version, strict, out.warnings);
  Status stored;
  if (info.kind == "InitConfiguration") {
    stored = Store(out.init, out.init_origin, DecodeInitConfiguration(doc, context), info);
  } else if (info.kind == "ClusterConfiguration") {
    stored = Store(out.cluster, out.cluster_origin, DecodeClusterConfiguration(doc, context), info);
  } else if (info.kind == "JoinConfiguration") {
    stored = Store(out.join, out.join_origin, DecodeJoinConfiguration(doc, context), info);
  } else if (info.kind == "ResetConfiguration" && version == ApiVersion::kV1beta4) {
    stored = Store(out.reset, out.reset_origin, DecodeResetConfiguration(doc, context), info);
  } else if (info.kind == "UpgradeConfiguration" && version == ApiVersion::kV1beta4) {
    out.warnings.push_back(info.origin +
                           ": kind: UpgradeConfiguration is not used by kkadm; ignored");
  } else {
    return UnknownKind(info, strict, out);
  }
  KKADM_RETURN_IF_ERROR(context.status());
  return stored;
}

// A component configuration is kept as given, once its fields are known to decode (unknown fields
// warn, or fail when strict; wrong types fail), as kubeadm's strict verification does.
Status StoreComponentConfig(const Json& doc, const DocInfo& info, bool strict, nlohmann::json& slot,
                            LoadedDocuments& out) {
  if (!slot.is_null()) return InvalidArgument(info.origin + ": kind: specified twice");
  DecodeContext context(info.origin, ApiVersion::kV1beta4, strict, out.warnings);
  CheckComponentConfig(doc, info.kind, context);
  KKADM_RETURN_IF_ERROR(context.status());
  slot = nlohmann::json::parse(doc.dump());
  return Status();
}

Status DecodeDocument(const Json& doc, const DocInfo& info, bool strict, LoadedDocuments& out) {
  if (info.api_version.rfind(kGroup, 0) == 0) return DecodeKubeadm(doc, info, strict, out);
  if (info.api_version == "kubelet.config.k8s.io/v1beta1" && info.kind == "KubeletConfiguration") {
    return StoreComponentConfig(doc, info, strict, out.component_configs.kubelet, out);
  }
  if (info.api_version == "kubeproxy.config.k8s.io/v1alpha1" &&
      info.kind == "KubeProxyConfiguration") {
    return StoreComponentConfig(doc, info, strict, out.component_configs.kube_proxy, out);
  }
  return UnknownKind(info, strict, out);
}

Result<DocInfo> ReadDocInfo(const std::string& name, const util::yaml::Document& doc,
                            size_t index) {
  std::string where = util::EscapeNonPrintable(name) + ": document " + std::to_string(index) +
                      " (line " + std::to_string(doc.line) + ")";
  if (!doc.value.is_object())
    return InvalidArgument(where + ": a document must be a map with apiVersion and kind");
  DocInfo info;
  for (const char* key : {"apiVersion", "kind"}) {
    auto it = doc.value.find(key);
    if (it == doc.value.end() || !it->is_string() || it->get<std::string>().empty()) {
      return InvalidArgument(where + ": " + key + ": required field is missing or not a string");
    }
    (std::string(key) == "kind" ? info.kind : info.api_version) = it->get<std::string>();
  }
  info.origin = util::EscapeNonPrintable(name) + ": " + util::EscapeNonPrintable(info.kind) +
                " (document " + std::to_string(index) + ")";
  return info;
}

}  // namespace

std::string DefaultedOrigin(const std::string& kind) {
  return kind + std::string(kDefaultedSuffix);
}

bool IsDefaultedOrigin(const std::string& origin) { return origin.ends_with(kDefaultedSuffix); }

Result<LoadedDocuments> LoadDocuments(const ConfigSource& source, bool strict) {
  auto docs = util::yaml::ReadDocumentsInFileOrder(source.content, {.source = source.name});
  if (!docs) return docs.error();
  if (docs->empty()) return InvalidArgument(source.name + ": no configuration documents found");
  LoadedDocuments out;
  for (size_t i = 0; i < docs->size(); ++i) {
    auto info = ReadDocInfo(source.name, (*docs)[i], i + 1);
    if (!info) return info.error();
    KKADM_RETURN_IF_ERROR(DecodeDocument((*docs)[i].value, *info, strict, out));
  }
  return out;
}

}  // namespace kkadm::config
