// kubeadm's apiclient idempotency helpers over util::KubeClient: create-or-update,
// create-or-retain, create-or-mutate, node patching and polling. All retry a lost write race
// (kAborted) a few times.
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "app/util/clock.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::util {

// How many times a helper re-reads and re-writes after a kAborted (409 Conflict) answer.
inline constexpr int kConflictRetries = 5;

// Creates `obj`; when it exists, replaces it with `obj` carrying the live resourceVersion
// (kubeadm's CreateOrUpdate*). Idempotent. Errors: PathForObject's, or the API's.
Status CreateOrUpdate(KubeClient& client, const nlohmann::json& obj);

// Creates `obj`; an existing object is left untouched (kubeadm's CreateOrRetainConfigMap).
Status CreateOrRetain(KubeClient& client, const nlohmann::json& obj);

// GETs the object at `path`, lets `mutate` change it and PUTs it back, again from a fresh GET on
// kAborted (kubeadm's MutateConfigMap). A mutate error stops and is returned.
Status MutateObject(KubeClient& client, const std::string& path,
                    const std::function<Status(nlohmann::json&)>& mutate);

// Creates `obj`; when it exists, MutateObject on it (kubeadm's CreateOrMutateConfigMap).
Status CreateOrMutate(KubeClient& client, const nlohmann::json& obj,
                      const std::function<Status(nlohmann::json&)>& mutate);

// The merge patch that turns `before` into `after` for metadata.labels, metadata.annotations and
// spec.taints (removed keys become null; taints are replaced as a whole list). An empty object when
// they are equal. Carries metadata.resourceVersion from `before` so a concurrent change conflicts.
nlohmann::json NodePatch(const nlohmann::json& before, const nlohmann::json& after);

// GETs node `node_name`, applies `mutate` to a copy and sends the difference (NodePatch) as a
// strategic merge patch, retrying on kAborted (kubeadm's PatchNodeOnce). No request when nothing
// changes.
Status PatchNode(KubeClient& client, const std::string& node_name,
                 const std::function<void(nlohmann::json& node)>& mutate);

// Polls GET `path` every `interval` until it succeeds and `ready` (if set) accepts the object, or
// `timeout` passes: kUnavailable with the last error or "not ready" then.
Result<nlohmann::json> WaitForObject(KubeClient& client, Clock& clock, const std::string& path,
                                     std::chrono::milliseconds interval,
                                     std::chrono::milliseconds timeout,
                                     const std::function<bool(const nlohmann::json&)>& ready = {});

}  // namespace kkadm::util
