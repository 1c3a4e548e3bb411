// The one adapter over yaml-cpp: multi-document YAML text to JSON values and JSON values back to
// YAML text. yaml-cpp exceptions stop here and become a Status.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/util/status.h"

namespace kkadm::config {

struct YamlDocument {
  nlohmann::ordered_json value;  // plain scalars resolved YAML-1.1 style (int, float, bool, null)
  int line = 1;                  // 1-based line where the document starts
};

// Splits `content` at `---` and converts each non-empty document. A syntax error yields
// InvalidArgument "<name>:<line>:<column>: <yaml-cpp's message>" (1-based).
Result<std::vector<YamlDocument>> ParseYamlDocuments(const std::string& name, const std::string& content);

// Emits one document in block style; keys keep the JSON object's order. Strings that would read
// back as another type (e.g. "true", "6443", "") are quoted.
std::string EmitYaml(const nlohmann::ordered_json& value);

}  // namespace kkadm::config
