// The YAML files of manifests/, compiled into the binary (see cmake/embed_manifests.cmake).
#pragma once

#include <optional>
#include <string_view>

namespace kkadm::util {

// The content of manifests/<name> (e.g. "static-pods/etcd.yaml"), or nullopt if there is none.
std::optional<std::string_view> EmbeddedManifest(std::string_view name);

}  // namespace kkadm::util
