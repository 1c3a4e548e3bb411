// KubeClient: the Kubernetes API as kkadm's phases see it — JSON objects at REST paths. The real
// one speaks HTTPS through libcurl (app/util/kube_client_real.h); dry-run and tests use others.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/util/patch_type.h"
#include "app/util/status.h"

namespace kkadm::util {

// Errors carry the API server's Status reason in their message ("configmaps \"x\" not found") and
// map HTTP codes to StatusCode: 404 kNotFound, 409 AlreadyExists kAlreadyExists, 409 Conflict
// kAborted, 403 kPermissionDenied, 401 kUnauthenticated, 400/422 kInvalidArgument, no answer or 5xx
// after retries kUnavailable.
class KubeClient {
 public:
  virtual ~KubeClient() = default;
  // `path` is a resource path, e.g. "/api/v1/namespaces/kube-system/configmaps/kubeadm-config".
  virtual Result<nlohmann::json> Get(const std::string& path) = 0;
  // `collection` is the list path, e.g. "/api/v1/namespaces/kube-system/configmaps".
  virtual Result<nlohmann::json> Create(const std::string& collection,
                                        const nlohmann::json& object) = 0;
  virtual Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) = 0;
  virtual Result<nlohmann::json> Patch(const std::string& path, PatchType type,
                                       const nlohmann::json& patch) = 0;
  virtual Status Delete(const std::string& path) = 0;
  // A non-resource GET ("/livez", "/readyz"): the body on HTTP 200, else an error.
  virtual Result<std::string> GetRaw(const std::string& path) = 0;
};

}  // namespace kkadm::util
