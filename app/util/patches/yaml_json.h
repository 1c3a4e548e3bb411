// Converts YAML text (one or several documents) to nlohmann::json, as kubeadm's sigs.k8s.io/yaml does.
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/util/status.h"

namespace kkadm::util::patches {

// Parses every document of `text` (YAML or JSON, which is YAML) into JSON values. Plain scalars are
// resolved as kubeadm's YAML library (goyaml.v2, YAML 1.1) does: null/~, true/false/yes/no/on/off/
// y/n, integers (0x, 0o, 0b, leading-0 octal, `_` separators), floats; .inf/.nan are rejected
// because JSON cannot hold them. Quoted or !!str scalars stay strings; map keys become strings. Documents that are empty or hold only comments are skipped. On a syntax error
// returns InvalidArgument "line L, column C: <reason>" (1-based).
Result<std::vector<nlohmann::json>> YamlDocumentsToJson(std::string_view text);

}  // namespace kkadm::util::patches
