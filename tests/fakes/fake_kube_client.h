// FakeKubeClient: an in-memory API server for phase tests. Objects live at their REST paths;
// Create/Update/Patch/Delete behave like the API server's (AlreadyExists, NotFound, Conflict on a
// stale resourceVersion) and every call is recorded so tests can assert order and content.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/util/kube_client.h"

namespace kkadm::testing {

class FakeKubeClient : public util::KubeClient {
 public:
  struct Call {
    std::string verb;  // GET, CREATE, UPDATE, PATCH, DELETE, GETRAW
    std::string path;  // the object's path (for CREATE: collection + "/" + name)
    nlohmann::json body;
  };

  // The object stored at `path`, or null.
  nlohmann::json Object(const std::string& path) const {
    auto it = objects_.find(path);
    return it == objects_.end() ? nlohmann::json() : it->second;
  }
  // Stores an object directly (no call recorded), assigning a resourceVersion.
  void Put(const std::string& path, nlohmann::json object) {
    object["metadata"]["resourceVersion"] = std::to_string(++version_);
    objects_[path] = std::move(object);
  }
  const std::vector<Call>& calls() const { return calls_; }
  const std::map<std::string, nlohmann::json>& objects() const { return objects_; }
  // Paths of every CREATE and UPDATE, in order.
  std::vector<std::string> Writes() const {
    std::vector<std::string> out;
    for (const auto& c : calls_) {
      if (c.verb == "CREATE" || c.verb == "UPDATE" || c.verb == "PATCH") out.push_back(c.path);
    }
    return out;
  }

  // Optional hooks: a non-OK status fails the call before it touches the store.
  std::function<Status(const Call&)> fail;
  // Answers GetRaw; defaults to "ok".
  std::function<Result<std::string>(const std::string&)> raw = [](const std::string&) {
    return Result<std::string>(std::string("ok"));
  };

  Result<nlohmann::json> Get(const std::string& path) override {
    KKADM_RETURN_IF_ERROR(Record("GET", path, nullptr));
    // A collection path lists its direct children.
    auto it = objects_.find(path);
    if (it != objects_.end()) return it->second;
    nlohmann::json items = nlohmann::json::array();
    for (const auto& [p, obj] : objects_) {
      if (p.rfind(path + "/", 0) == 0 && p.find('/', path.size() + 1) == std::string::npos) {
        items.push_back(obj);
      }
    }
    if (!items.empty() || IsCollection(path)) return nlohmann::json{{"items", items}};
    return NotFoundFor(path);
  }

  Result<nlohmann::json> Create(const std::string& collection,
                                const nlohmann::json& object) override {
    const std::string path = collection + "/" + object["metadata"].value("name", "");
    KKADM_RETURN_IF_ERROR(Record("CREATE", path, object));
    if (objects_.count(path)) {
      return AlreadyExists(Kind(path) + " \"" + Name(path) + "\" already exists");
    }
    Put(path, object);
    return objects_[path];
  }

  Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) override {
    KKADM_RETURN_IF_ERROR(Record("UPDATE", path, object));
    auto it = objects_.find(path);
    if (it == objects_.end()) return NotFoundFor(path);
    const auto& meta = object.value("metadata", nlohmann::json::object());
    if (meta.contains("resourceVersion") &&
        meta["resourceVersion"] != it->second["metadata"]["resourceVersion"]) {
      return Aborted("Operation cannot be fulfilled on " + Kind(path) + " \"" + Name(path) +
                     "\": the object has been modified; please apply your changes to the latest "
                     "version and try again");
    }
    Put(path, object);
    return objects_[path];
  }

  Result<nlohmann::json> Patch(const std::string& path, util::PatchType type,
                               const nlohmann::json& patch) override {
    KKADM_RETURN_IF_ERROR(Record("PATCH", path, patch));
    auto it = objects_.find(path);
    if (it == objects_.end()) return NotFoundFor(path);
    nlohmann::json patched = it->second;
    try {
      if (type == util::PatchType::kJson) {
        patched = patched.patch(patch);
      } else {
        patched.merge_patch(patch);
      }
    } catch (const nlohmann::json::exception& e) {
      return InvalidArgument(e.what());
    }
    Put(path, patched);
    return objects_[path];
  }

  Status Delete(const std::string& path) override {
    KKADM_RETURN_IF_ERROR(Record("DELETE", path, nullptr));
    if (objects_.erase(path) == 0) return NotFoundFor(path).error();
    return Status::Ok();
  }

  Result<std::string> GetRaw(const std::string& path) override {
    KKADM_RETURN_IF_ERROR(Record("GETRAW", path, nullptr));
    return raw(path);
  }

 private:
  Status Record(const std::string& verb, const std::string& path, const nlohmann::json& body) {
    calls_.push_back(Call{verb, path, body});
    return fail ? fail(calls_.back()) : Status::Ok();
  }
  static std::string Name(const std::string& path) { return path.substr(path.rfind('/') + 1); }
  static std::string Kind(const std::string& path) {
    std::string head = path.substr(0, path.rfind('/'));
    return head.substr(head.rfind('/') + 1);
  }
  static bool IsCollection(const std::string& path) {
    const std::string last = Name(path);
    return last == "secrets" || last == "configmaps" || last == "nodes";
  }
  static Result<nlohmann::json> NotFoundFor(const std::string& path) {
    return NotFound(Kind(path) + " \"" + Name(path) + "\" not found");
  }

  std::map<std::string, nlohmann::json> objects_;
  std::vector<Call> calls_;
  long version_ = 0;
};

}  // namespace kkadm::testing
