// MemoryKubeClient: an in-memory util::KubeClient for tests — a map path -> object with a
// resourceVersion counter, optimistic concurrency on Update/Patch, and a hook to inject errors.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/util/kube_client.h"

namespace kkadm::testing {

class MemoryKubeClient : public util::KubeClient {
 public:
  // Seen in order, as "GET /api/v1/...".
  std::vector<std::string> calls;
  // Called before each request; a non-OK Status is returned instead of doing it.
  std::function<Status(const std::string& method, const std::string& path)> inject;
  // Bodies for GetRaw.
  std::map<std::string, std::string> raw;

  // Stores `obj` at `path` as if it was created (a fresh resourceVersion).
  void Put(const std::string& path, nlohmann::json obj) {
    obj["metadata"]["resourceVersion"] = std::to_string(++version_);
    objects_[path] = std::move(obj);
  }
  bool Has(const std::string& path) const { return objects_.count(path) != 0; }
  const nlohmann::json& At(const std::string& path) const { return objects_.at(path); }

  Result<nlohmann::json> Get(const std::string& path) override {
    KKADM_RETURN_IF_ERROR(Enter("GET", path));
    auto it = objects_.find(path);
    if (it == objects_.end()) return NotFoundError(path);
    return it->second;
  }
  Result<nlohmann::json> Create(const std::string& collection,
                                const nlohmann::json& object) override {
    KKADM_RETURN_IF_ERROR(Enter("POST", collection));
    std::string path =
        collection + "/" + object.value("metadata", nlohmann::json::object()).value("name", "");
    if (Has(path)) return AlreadyExists(Describe(path) + " already exists");
    Put(path, object);
    return objects_[path];
  }
  Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) override {
    KKADM_RETURN_IF_ERROR(Enter("PUT", path));
    KKADM_RETURN_IF_ERROR(CheckVersion(path, object));
    Put(path, object);
    return objects_[path];
  }
  Result<nlohmann::json> Patch(const std::string& path, util::PatchType type,
                               const nlohmann::json& patch) override {
    KKADM_RETURN_IF_ERROR(Enter("PATCH", path));
    KKADM_RETURN_IF_ERROR(CheckVersion(path, patch));
    nlohmann::json obj = objects_[path];
    try {
      if (type == util::PatchType::kJson)
        obj = obj.patch(patch);
      else
        obj.merge_patch(patch);  // strategic merge is a merge patch for the fields tests use
    } catch (const nlohmann::json::exception& e) {
      return InvalidArgument(e.what());
    }
    Put(path, obj);
    return objects_[path];
  }
  Status Delete(const std::string& path) override {
    KKADM_RETURN_IF_ERROR(Enter("DELETE", path));
    if (objects_.erase(path) == 0) return NotFoundError(path).error();
    return Status::Ok();
  }
  Result<std::string> GetRaw(const std::string& path) override {
    KKADM_RETURN_IF_ERROR(Enter("GET", path));
    auto it = raw.find(path);
    if (it == raw.end()) return NotFound("the server could not find the requested resource");
    return it->second;
  }

 private:
  Status Enter(const std::string& method, const std::string& path) {
    calls.push_back(method + " " + path);
    return inject ? inject(method, path) : Status::Ok();
  }
  // "configmaps \"x\"" from ".../configmaps/x", as the API server words it.
  static std::string Describe(const std::string& path) {
    auto slash = path.rfind('/');
    auto prev = path.rfind('/', slash - 1);
    return path.substr(prev + 1, slash - prev - 1) + " \"" + path.substr(slash + 1) + "\"";
  }
  static Result<nlohmann::json> NotFoundError(const std::string& path) {
    return NotFound(Describe(path) + " not found");
  }
  Status CheckVersion(const std::string& path, const nlohmann::json& object) {
    auto it = objects_.find(path);
    if (it == objects_.end()) return NotFoundError(path).error();
    if (!object.contains("metadata") || !object["metadata"].contains("resourceVersion"))
      return Status::Ok();
    if (object["metadata"]["resourceVersion"] != it->second["metadata"]["resourceVersion"])
      return Aborted("Operation cannot be fulfilled on " + Describe(path) +
                     ": the object has been modified; please apply your changes to the latest "
                     "version and try again");
    return Status::Ok();
  }

  std::map<std::string, nlohmann::json> objects_;
  int version_ = 0;
};

}  // namespace kkadm::testing
