// YAML <-> JSON for Kubernetes objects: parsing YAML documents into nlohmann::json and emitting
// JSON the way Kubernetes marshals objects to YAML (sigs.k8s.io/yaml over go-yaml v2).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// YAML text of a JSON document: keys sorted, block style, sequences not indented under their key,
// strings quoted only where a YAML 1.1 reader would take them for something else ("true", "10",
// "", "a: b"). Ends with a newline.
std::string ToKubernetesYaml(const nlohmann::json& document);

// Parses one YAML document into JSON: quoted scalars stay strings; plain scalars become
// integers, floats, booleans or null where YAML says so. InvalidArgument on a syntax error.
Result<nlohmann::json> YamlToJson(std::string_view text);

// `s` as a YAML double-quoted scalar, with escapes for quotes, backslashes and control characters.
std::string YamlDoubleQuoted(const std::string& s);

}  // namespace kkadm::util
