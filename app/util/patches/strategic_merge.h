// Strategic merge patch (Kubernetes' k8s.io/apimachinery semantics) over nlohmann::json.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util::patches {

// Applies the strategic merge `patch` to `original` (both JSON objects) for a value of type
// `root_type` (kPodType, kDeploymentType, or "" for a type without metadata).
//  - maps merge key by key; a null value deletes the key;
//  - lists with patchStrategy "merge" merge element-wise by patchMergeKey (containers by name,
//    volumeMounts by mountPath, ...) or, for scalars, as a de-duplicated union; new patch elements
//    come first and existing ones keep their place, as apimachinery orders them; other lists and
//    lists of unknown fields are replaced;
//  - directives: `$patch: replace|delete` in a map, `{<key>: x, $patch: delete}` and
//    `{$patch: replace}` elements in a merged list, `$retainKeys`, `$deleteFromPrimitiveList/<f>`,
//    `$setElementOrder/<f>`.
// Fields kkadm has no metadata for merge like a JSON merge patch (RFC 7386).
// Returns the merged object, or InvalidArgument naming the path and the problem (e.g. an element
// of spec.containers without "name", an unknown `$patch` value).
Result<nlohmann::json> StrategicMergePatch(const nlohmann::json& original,
                                           const nlohmann::json& patch, std::string_view root_type);

}  // namespace kkadm::util::patches
