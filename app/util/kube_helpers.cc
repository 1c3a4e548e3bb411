// kubeadm's apiclient idempotency helpers over util::KubeClient.
#include "app/util/kube_helpers.h"

#include <spdlog/spdlog.h>

#include "app/util/kube_paths.h"

namespace kkadm::util {
namespace {

Status Retried(const std::string& what, const std::function<Status()>& attempt) {
  Status last;
  for (int i = 0; i <= kConflictRetries; ++i) {
    last = attempt();
    if (last.code() != StatusCode::kAborted) return last;
    spdlog::debug("{}: conflict, retrying ({})", what, last.message());
  }
  return last;
}

// Create; an AlreadyExists answer is returned as is so callers can choose what to do.
Result<std::string> CreateObject(KubeClient& client, const nlohmann::json& obj) {
  auto collection = CollectionForObject(obj);
  if (!collection) return collection.error();
  auto path = PathForObject(obj);
  if (!path) return path.error();
  auto created = client.Create(*collection, obj);
  if (!created) return created.error();
  return *path;
}

std::string ResourceVersion(const nlohmann::json& obj) {
  auto meta = obj.find("metadata");
  if (meta == obj.end() || !meta->is_object()) return "";
  auto rv = meta->find("resourceVersion");
  return rv != meta->end() && rv->is_string() ? rv->get<std::string>() : "";
}

// The merge-patch diff of two string maps: changed/added keys, removed keys as null.
nlohmann::json MapDiff(const nlohmann::json& before, const nlohmann::json& after) {
  nlohmann::json diff = nlohmann::json::object();
  const auto empty = nlohmann::json::object();
  const auto& b = before.is_object() ? before : empty;
  const auto& a = after.is_object() ? after : empty;
  for (const auto& [key, value] : a.items())
    if (!b.contains(key) || b[key] != value) diff[key] = value;
  for (const auto& [key, value] : b.items())
    if (!a.contains(key)) diff[key] = nullptr;
  return diff;
}

nlohmann::json At(const nlohmann::json& obj, const char* outer, const char* inner) {
  if (!obj.is_object() || !obj.contains(outer) || !obj[outer].is_object()) return nullptr;
  return obj[outer].value(inner, nlohmann::json());
}

}  // namespace

Status CreateOrUpdate(KubeClient& client, const nlohmann::json& obj) {
  auto created = CreateObject(client, obj);
  if (created || created.error().code() != StatusCode::kAlreadyExists) return created.status();
  auto path = PathForObject(obj);
  return Retried("updating " + *path, [&]() -> Status {
    auto live = client.Get(*path);
    if (!live) return live.error();
    nlohmann::json replacement = obj;
    replacement["metadata"]["resourceVersion"] = ResourceVersion(*live);
    return client.Update(*path, replacement).status();
  });
}

Status CreateOrRetain(KubeClient& client, const nlohmann::json& obj) {
  auto created = CreateObject(client, obj);
  if (!created && created.error().code() == StatusCode::kAlreadyExists) {
    spdlog::debug("{} exists; retained", created.error().message());
    return Status::Ok();
  }
  return created.status();
}

Status MutateObject(KubeClient& client, const std::string& path,
                    const std::function<Status(nlohmann::json&)>& mutate) {
  return Retried("mutating " + path, [&]() -> Status {
    auto live = client.Get(path);
    if (!live) return live.error();
    KKADM_RETURN_IF_ERROR(mutate(*live));
    return client.Update(path, *live).status();
  });
}

Status CreateOrMutate(KubeClient& client, const nlohmann::json& obj,
                      const std::function<Status(nlohmann::json&)>& mutate) {
  auto created = CreateObject(client, obj);
  if (created || created.error().code() != StatusCode::kAlreadyExists) return created.status();
  return MutateObject(client, *PathForObject(obj), mutate);
}

nlohmann::json NodePatch(const nlohmann::json& before, const nlohmann::json& after) {
  nlohmann::json patch = nlohmann::json::object();
  for (const char* field : {"labels", "annotations"}) {
    auto diff = MapDiff(At(before, "metadata", field), At(after, "metadata", field));
    if (!diff.empty()) patch["metadata"][field] = diff;
  }
  auto taints_before = At(before, "spec", "taints");
  auto taints_after = At(after, "spec", "taints");
  if (taints_before != taints_after) patch["spec"]["taints"] = taints_after;
  if (!patch.empty()) patch["metadata"]["resourceVersion"] = ResourceVersion(before);
  return patch;
}

Status PatchNode(KubeClient& client, const std::string& node_name,
                 const std::function<void(nlohmann::json& node)>& mutate) {
  const std::string path = ResourcePath("v1", "nodes", "", node_name);
  return Retried("patching node " + node_name, [&]() -> Status {
    auto live = client.Get(path);
    if (!live) return live.error();
    nlohmann::json changed = *live;
    mutate(changed);
    auto patch = NodePatch(*live, changed);
    if (patch.empty()) return Status::Ok();
    return client.Patch(path, PatchType::kStrategic, patch).status();
  });
}

Result<nlohmann::json> WaitForObject(KubeClient& client, Clock& clock, const std::string& path,
                                     std::chrono::milliseconds interval,
                                     std::chrono::milliseconds timeout,
                                     const std::function<bool(const nlohmann::json&)>& ready) {
  const auto deadline = clock.Now() + timeout;
  Status last;
  while (true) {
    auto obj = client.Get(path);
    if (obj && (!ready || ready(*obj))) return obj;
    last = obj ? Unavailable(path + " is not ready") : obj.error();
    if (clock.Now() >= deadline) break;
    clock.Sleep(interval);
  }
  return Unavailable("timed out waiting for " + path + ": " + last.message());
}

}  // namespace kkadm::util
