// RBAC and ConfigMap object builders, and RetryFor (see kube_apply.h).
#include "app/util/kube_apply.h"

namespace kkadm::util {

using nlohmann::json;

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

}  // namespace kkadm::util
