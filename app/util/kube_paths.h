// REST paths of Kubernetes objects: from (apiVersion, plural, namespace, name) or from an object's
// own apiVersion/kind/metadata, for the kinds kkadm creates.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// "/api/v1/namespaces/kube-system/configmaps/x" for core ("v1") objects,
// "/apis/<group>/<version>/..." otherwise; no namespace segment when `ns` is empty; the collection
// path when `name` is empty.
std::string ResourcePath(std::string_view api_version, std::string_view resource_plural,
                         std::string_view ns, std::string_view name);

// The lower-case plural resource of a kind ("ConfigMap" -> "configmaps"); kNotFound for a kind
// kkadm does not know.
Result<std::string> PluralForKind(std::string_view kind);

// The object's path (with its name) and its collection path (without). kInvalidArgument when
// apiVersion, kind or metadata.name is missing; kNotFound for an unknown kind.
Result<std::string> PathForObject(const nlohmann::json& obj);
Result<std::string> CollectionForObject(const nlohmann::json& obj);

}  // namespace kkadm::util
