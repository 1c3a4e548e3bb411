// Strategic-merge metadata (patchStrategy / patchMergeKey) of the Kubernetes types kkadm patches.
#pragma once

#include <string>
#include <string_view>

namespace kkadm::util::patches {

// What the Go struct tags `patchStrategy` and `patchMergeKey` say about one field.
struct FieldPatchMeta {
  bool merge = false;    // patchStrategy "merge": lists are merged (by merge_key for lists of maps)
  bool replace = false;  // patchStrategy "replace": maps/lists are replaced wholesale
  std::string merge_key;  // patchMergeKey for lists of maps, e.g. "name", "mountPath"
  std::string type;  // type of the value (or of list elements); "" when kkadm does not model it
};

// Root type names accepted by LookupFieldPatchMeta: "Pod" (core/v1) and "Deployment" (apps/v1).
inline constexpr std::string_view kPodType = "Pod";
inline constexpr std::string_view kDeploymentType = "Deployment";

// Metadata of `field` inside a value of `type`. An unknown type or field yields the default
// (no strategy, no type): maps merge recursively, lists are replaced, as a JSON merge patch does.
FieldPatchMeta LookupFieldPatchMeta(std::string_view type, std::string_view field);

}  // namespace kkadm::util::patches
