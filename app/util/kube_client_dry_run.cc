// DryRunKubeClient: prints API calls, keeps what the dry run wrote, answers like kubeadm's fake.
#include "app/util/kube_client_dry_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace kkadm::util {
namespace {

// "Secret kube-system/bootstrap-token-abcdef" for messages; objects' secrets are never printed.
std::string Describe(const nlohmann::json& object) {
  const nlohmann::json& meta = object.value("metadata", nlohmann::json::object());
  std::string ns = meta.value("namespace", "");
  return fmt::format("{} {}{}", object.value("kind", "object"), ns.empty() ? "" : ns + "/",
                     meta.value("name", ""));
}

std::string WithoutQuery(const std::string& path) { return path.substr(0, path.find('?')); }

// The parts of "/api/v1[/namespaces/<ns>]/<resource>[/<name>]" or "/apis/<group>/<version>/...".
struct ResourceRef {
  std::string group;     // "" for the core group
  std::string resource;  // "secrets"
  std::string name;      // "" for a collection
};

ResourceRef ParseResourcePath(const std::string& path) {
  std::vector<std::string> parts;
  for (size_t start = 1; start <= path.size();) {
    size_t end = std::min(path.find('/', start), path.size());
    parts.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  ResourceRef ref;
  size_t at = 2;  // after "api", "v1"
  if (!parts.empty() && parts[0] == "apis") {
    ref.group = parts.size() > 1 ? parts[1] : "";
    at = 3;
  }
  if (parts.size() > at + 2 && parts[at] == "namespaces") at += 2;
  if (parts.size() > at) ref.resource = parts[at];
  if (parts.size() > at + 1) ref.name = parts[at + 1];
  return ref;
}

// How the API server names a resource in its messages: "secrets",
// "clusterroles.rbac.authorization.k8s.io".
std::string QualifiedResource(const ResourceRef& ref) {
  return ref.group.empty() ? ref.resource : ref.resource + "." + ref.group;
}

// kubeadm's dry-run Node: the name and its hostname label.
nlohmann::json FakeNode(const std::string& name) {
  return {
      {"apiVersion", "v1"},
      {"kind", "Node"},
      {"metadata",
       {{"name", name}, {"resourceVersion", "1"}, {"labels", {{"kubernetes.io/hostname", name}}}}}};
}

// The next resourceVersion of a stored object ("1" for a new one).
std::string NextResourceVersion(const nlohmann::json* stored) {
  if (stored == nullptr) return "1";
  const std::string current =
      stored->value("metadata", nlohmann::json::object()).value("resourceVersion", "0");
  return std::to_string(std::strtoull(current.c_str(), nullptr, 10) + 1);
}

}  // namespace

Result<nlohmann::json> DryRunKubeClient::Get(const std::string& path) {
  printer_.Line("dryrun", fmt::format("Would perform action GET on resource {}", path));
  const std::string key = WithoutQuery(path);
  const ResourceRef ref = ParseResourcePath(key);
  if (ref.name.empty()) return List(key);
  if (auto it = objects_.find(key); it != objects_.end()) return it->second;
  if (ref.group.empty() && ref.resource == "nodes") return FakeNode(ref.name);
  return NotFound(fmt::format("{} \"{}\" not found", QualifiedResource(ref), ref.name));
}

nlohmann::json DryRunKubeClient::List(const std::string& collection) const {
  nlohmann::json items = nlohmann::json::array();
  const std::string prefix = collection + "/";
  for (auto it = objects_.lower_bound(prefix);
       it != objects_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    if (it->first.find('/', prefix.size()) == std::string::npos) items.push_back(it->second);
  }
  return {{"kind", "List"},
          {"apiVersion", "v1"},
          {"metadata", {{"resourceVersion", "1"}}},
          {"items", items}};
}

Result<nlohmann::json> DryRunKubeClient::Create(const std::string& collection,
                                                const nlohmann::json& object) {
  printer_.Line("dryrun", fmt::format("Would perform action CREATE on {}", Describe(object)));
  const std::string name =
      object.value("metadata", nlohmann::json::object()).value("name", std::string());
  const std::string key = WithoutQuery(collection) + "/" + name;
  if (objects_.count(key) != 0) {
    return AlreadyExists(
        fmt::format("{} \"{}\" already exists", QualifiedResource(ParseResourcePath(key)), name));
  }
  nlohmann::json stored = object;
  stored["metadata"]["resourceVersion"] = NextResourceVersion(nullptr);
  return objects_[key] = std::move(stored);
}

Result<nlohmann::json> DryRunKubeClient::Update(const std::string& path,
                                                const nlohmann::json& object) {
  printer_.Line("dryrun", fmt::format("Would perform action UPDATE on {}", Describe(object)));
  const std::string key = WithoutQuery(path);
  auto it = objects_.find(key);
  nlohmann::json stored = object;
  stored["metadata"]["resourceVersion"] =
      NextResourceVersion(it == objects_.end() ? nullptr : &it->second);
  return objects_[key] = std::move(stored);
}

Result<nlohmann::json> DryRunKubeClient::Patch(const std::string& path, PatchType,
                                               const nlohmann::json& patch) {
  printer_.Line("dryrun", fmt::format("Would perform action PATCH on resource {}", path));
  return patch.is_object() ? patch : nlohmann::json::object();
}

Status DryRunKubeClient::Delete(const std::string& path) {
  printer_.Line("dryrun", fmt::format("Would perform action DELETE on resource {}", path));
  objects_.erase(WithoutQuery(path));
  return Status();
}

Result<std::string> DryRunKubeClient::GetRaw(const std::string&) { return std::string("ok"); }

}  // namespace kkadm::util
