// Create-or-update helpers and RBAC object builders (see kube_apply.h).
#include "app/util/kube_apply.h"

#include <openssl/evp.h>

#include <map>

namespace kkadm::util {
namespace {

using nlohmann::json;

struct KindInfo {
  const char* plural;
  bool namespaced;
};

const std::map<std::string, KindInfo>& Kinds() {
  static const std::map<std::string, KindInfo> kinds = {
      {"ConfigMap", {"configmaps", true}},
      {"Secret", {"secrets", true}},
      {"Service", {"services", true}},
      {"ServiceAccount", {"serviceaccounts", true}},
      {"Node", {"nodes", false}},
      {"Role", {"roles", true}},
      {"RoleBinding", {"rolebindings", true}},
      {"ClusterRole", {"clusterroles", false}},
      {"ClusterRoleBinding", {"clusterrolebindings", false}},
      {"Deployment", {"deployments", true}},
      {"DaemonSet", {"daemonsets", true}},
  };
  return kinds;
}

}  // namespace

Result<std::string> CollectionPath(const json& object) {
  const std::string api_version = object.value("apiVersion", "");
  const std::string kind = object.value("kind", "");
  auto it = Kinds().find(kind);
  if (it == Kinds().end() || api_version.empty()) {
    return InvalidArgument("unknown object kind \"" + kind + "\" (" + api_version + ")");
  }
  std::string path = api_version.find('/') == std::string::npos ? "/api/" + api_version
                                                                  : "/apis/" + api_version;
  if (it->second.namespaced) {
    const std::string ns = object.value("/metadata/namespace"_json_pointer, std::string());
    if (ns.empty()) return InvalidArgument(kind + " without a namespace");
    path += "/namespaces/" + ns;
  }
  return path + "/" + it->second.plural;
}

Result<std::string> ObjectPath(const json& object) {
  auto collection = CollectionPath(object);
  if (!collection) return collection.error();
  return *collection + "/" + object.value("/metadata/name"_json_pointer, std::string());
}

Status CreateOrUpdate(KubeClient& client, const json& object) {
  auto collection = CollectionPath(object);
  if (!collection) return collection.error();
  auto created = client.Create(*collection, object);
  if (created) return Status::Ok();
  if (created.error().code() != StatusCode::kAlreadyExists) return created.error();
  const std::string path = *collection + "/" + object["metadata"].value("name", "");
  auto existing = client.Get(path);
  if (!existing) return existing.error();
  json replacement = object;
  if (auto rv = existing->find("metadata"); rv != existing->end() && rv->contains("resourceVersion")) {
    replacement["metadata"]["resourceVersion"] = (*rv)["resourceVersion"];
  }
  return client.Update(path, replacement).status();
}

Status CreateIfAbsent(KubeClient& client, const json& object) {
  auto collection = CollectionPath(object);
  if (!collection) return collection.error();
  auto created = client.Create(*collection, object);
  if (created || created.error().code() == StatusCode::kAlreadyExists) return Status::Ok();
  return created.error();
}

Status RetryFor(Clock& clock, std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
                const std::function<Status()>& fn) {
  const auto deadline = clock.Now() + timeout;
  while (true) {
    Status status = fn();
    if (status.ok() || clock.Now() + interval > deadline) return status;
    clock.Sleep(interval);
  }
}

json RbacSubject(const std::string& kind, const std::string& name) {
  return {{"kind", kind}, {"apiGroup", kRbacGroup}, {"name", name}};
}

json PolicyRule(std::vector<std::string> verbs, std::vector<std::string> api_groups,
                std::vector<std::string> resources, std::vector<std::string> resource_names) {
  json rule = {{"verbs", verbs}, {"apiGroups", api_groups}, {"resources", resources}};
  if (!resource_names.empty()) rule["resourceNames"] = resource_names;
  return rule;
}

json Role(const std::string& ns, const std::string& name, json rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "Role"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"rules", std::move(rules)}};
}

json RoleBinding(const std::string& ns, const std::string& name, const std::string& role,
                 json subjects) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "RoleBinding"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"roleRef", {{"apiGroup", kRbacGroup}, {"kind", "Role"}, {"name", role}}},
          {"subjects", std::move(subjects)}};
}

json ClusterRole(const std::string& name, json rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRole"},
          {"metadata", {{"name", name}}},
          {"rules", std::move(rules)}};
}

json ClusterRoleBinding(const std::string& name, const std::string& cluster_role, json subjects) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRoleBinding"},
          {"metadata", {{"name", name}}},
          {"roleRef", {{"apiGroup", kRbacGroup}, {"kind", "ClusterRole"}, {"name", cluster_role}}},
          {"subjects", std::move(subjects)}};
}

json ConfigMap(const std::string& ns, const std::string& name, json data) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"data", std::move(data)}};
}

std::string Base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()),
                                static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return InvalidArgument("invalid base64 length");
  std::string out(3 * text.size() / 4 + 1, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (n < 0) return InvalidArgument("invalid base64 data");
  size_t size = static_cast<size_t>(n);
  // EVP_DecodeBlock counts the padding as zero bytes.
  for (size_t i = text.size(); i > 0 && text[i - 1] == '='; --i) --size;
  out.resize(size);
  return out;
}

}  // namespace kkadm::util
