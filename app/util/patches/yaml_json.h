// Converts YAML text (one or several documents) to nlohmann::json, as kubeadm's sigs.k8s.io/yaml does.
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/util/status.h"

namespace kkadm::util::patches {

// Parses every document of `text` (YAML or JSON, which is YAML) into JSON values. Plain scalars are
// resolved with the YAML 1.2 core schema (null/~, true/false, integers incl. 0x/0o, floats incl.
// .inf/.nan rejected because JSON cannot hold them); quoted or !!str scalars stay strings; map keys
// become strings. Documents that are empty or hold only comments are skipped. On a syntax error
// returns InvalidArgument "line L, column C: <reason>" (1-based).
Result<std::vector<nlohmann::json>> YamlDocumentsToJson(std::string_view text);

}  // namespace kkadm::util::patches
