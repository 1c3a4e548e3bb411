// The RBAC and ConfigMap objects kubeadm's phases create, and retrying an API call for a
// while (the create-or-update helpers are in kube_helpers.h).
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/util/clock.h"
#include "app/util/kube_client.h"
#include "app/util/kube_helpers.h"
#include "app/util/kubeconfig.h"
#include "app/util/status.h"

namespace kkadm::util {

inline constexpr const char* kKubeSystem = "kube-system";
inline constexpr const char* kKubePublic = "kube-public";
inline constexpr const char* kRbacGroup = "rbac.authorization.k8s.io";
inline constexpr const char* kNodeBootstrapTokenGroup =
    "system:bootstrappers:kubeadm:default-node-token";
inline constexpr const char* kNodesGroup = "system:nodes";

// Calls `fn` every `interval` until it succeeds or `timeout` passes; returns its last status.
Status RetryFor(Clock& clock, std::chrono::milliseconds timeout, std::chrono::milliseconds interval,
                const std::function<Status()>& fn);

// {"kind": "Group"|"User", "apiGroup": rbac, "name": name}.
nlohmann::json RbacSubject(const std::string& kind, const std::string& name);
// One policy rule: verbs on resources of apiGroups, optionally limited to resourceNames.
nlohmann::json PolicyRule(std::vector<std::string> verbs, std::vector<std::string> api_groups,
                          std::vector<std::string> resources,
                          std::vector<std::string> resource_names = {});
nlohmann::json Role(const std::string& ns, const std::string& name, nlohmann::json rules);
nlohmann::json RoleBinding(const std::string& ns, const std::string& name, const std::string& role,
                           nlohmann::json subjects);
nlohmann::json ClusterRole(const std::string& name, nlohmann::json rules);
nlohmann::json ClusterRoleBinding(const std::string& name, const std::string& cluster_role,
                                  nlohmann::json subjects);
nlohmann::json ConfigMap(const std::string& ns, const std::string& name, nlohmann::json data);

}  // namespace kkadm::util
