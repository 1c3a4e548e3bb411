// REST paths of Kubernetes objects.
#include "app/util/kube_paths.h"

#include <array>
#include <utility>

namespace kkadm::util {
namespace {

struct KindInfo {
  std::string_view kind;
  std::string_view plural;
  bool namespaced;
};

constexpr std::array<KindInfo, 13> kKinds{{
    {"ConfigMap", "configmaps", true},
    {"Secret", "secrets", true},
    {"ServiceAccount", "serviceaccounts", true},
    {"Service", "services", true},
    {"Node", "nodes", false},
    {"Namespace", "namespaces", false},
    {"Role", "roles", true},
    {"RoleBinding", "rolebindings", true},
    {"ClusterRole", "clusterroles", false},
    {"ClusterRoleBinding", "clusterrolebindings", false},
    {"Deployment", "deployments", true},
    {"DaemonSet", "daemonsets", true},
    {"CertificateSigningRequest", "certificatesigningrequests", false},
}};

const KindInfo* FindKind(std::string_view kind) {
  for (const auto& info : kKinds)
    if (info.kind == kind) return &info;
  return nullptr;
}

std::string StringField(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The object's collection path and name.
Result<std::pair<std::string, std::string>> Locate(const nlohmann::json& obj) {
  if (!obj.is_object()) return InvalidArgument("a Kubernetes object must be a JSON object");
  std::string api_version = StringField(obj, "apiVersion");
  std::string kind = StringField(obj, "kind");
  if (api_version.empty() || kind.empty())
    return InvalidArgument("object has no apiVersion or kind");
  const KindInfo* info = FindKind(kind);
  if (info == nullptr) return NotFound("unknown kind \"" + kind + "\"");
  nlohmann::json meta = obj.value("metadata", nlohmann::json::object());
  if (!meta.is_object()) return InvalidArgument(kind + " has a malformed metadata");
  std::string name = StringField(meta, "name");
  if (name.empty()) return InvalidArgument(kind + " has no metadata.name");
  std::string ns = info->namespaced ? StringField(meta, "namespace") : std::string();
  if (info->namespaced && ns.empty()) ns = "default";
  return std::make_pair(ResourcePath(api_version, info->plural, ns, ""), name);
}

}  // namespace

std::string ResourcePath(std::string_view api_version, std::string_view resource_plural,
                         std::string_view ns, std::string_view name) {
  std::string path = api_version == "v1" ? "/api/v1" : "/apis/" + std::string(api_version);
  if (!ns.empty()) path += "/namespaces/" + std::string(ns);
  path += "/" + std::string(resource_plural);
  if (!name.empty()) path += "/" + std::string(name);
  return path;
}

Result<std::string> PluralForKind(std::string_view kind) {
  const KindInfo* info = FindKind(kind);
  if (info == nullptr) return NotFound("unknown kind \"" + std::string(kind) + "\"");
  return std::string(info->plural);
}

Result<std::string> PathForObject(const nlohmann::json& obj) {
  auto located = Locate(obj);
  if (!located) return located.error();
  return located->first + "/" + located->second;
}

Result<std::string> CollectionForObject(const nlohmann::json& obj) {
  auto located = Locate(obj);
  if (!located) return located.error();
  return located->first;
}

}  // namespace kkadm::util
