// The three kinds of patch Kubernetes knows, and their media types: shared by the API client's
// PATCH requests and kubeadm's --patches files.
#pragma once

#include <string_view>

namespace kkadm::util {

enum class PatchType { kJson, kMerge, kStrategic };

// The media type of a patch: "application/json-patch+json", "application/merge-patch+json" or
// "application/strategic-merge-patch+json" (the Content-Type of a PATCH, and what kubeadm prints
// of a patch file).
constexpr std::string_view PatchMediaType(PatchType type) {
  switch (type) {
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kStrategic:
      return "application/strategic-merge-patch+json";
  }
  return "application/strategic-merge-patch+json";
}

}  // namespace kkadm::util
