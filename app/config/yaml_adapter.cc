// yaml-cpp <-> nlohmann::json conversion; the only file that calls yaml-cpp for configs.
#include "app/config/yaml_adapter.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cstdlib>
#include <limits>
#include <regex>

namespace kkadm::config {
namespace {

using Json = nlohmann::ordered_json;

// Resolves a plain (unquoted) scalar the way Go's yaml.v2 does for the common cases.
Json ResolvePlain(const std::string& s) {
  static const std::regex kInt(R"([-+]?(0|[1-9][0-9_]*))");
  static const std::regex kHex(R"(0x[0-9a-fA-F_]+)");
  static const std::regex kFloat(R"([-+]?([0-9][0-9_]*)?\.[0-9]*([eE][-+]?[0-9]+)?|[-+]?[0-9]+[eE][-+]?[0-9]+)");
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  for (const char* t : {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}) {
    if (s == t) return true;
  }
  for (const char* f : {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"}) {
    if (s == f) return false;
  }
  std::string digits;
  for (char c : s) {
    if (c != '_') digits += c;
  }
  if (std::regex_match(s, kInt)) {
    errno = 0;
    long long v = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno == 0) return v;
    return std::strtod(digits.c_str(), nullptr);
  }
  if (std::regex_match(s, kHex)) return std::strtoll(digits.c_str() + 2, nullptr, 16);
  if (s != "." && std::regex_match(s, kFloat)) return std::strtod(digits.c_str(), nullptr);
  if (s == ".inf" || s == ".Inf" || s == "+.inf") return std::numeric_limits<double>::infinity();
  if (s == "-.inf" || s == "-.Inf") return -std::numeric_limits<double>::infinity();
  return s;
}

Json ToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      // yaml-cpp tags plain scalars "?" and quoted ones "!"; explicit tags like !!str also count.
      if (node.Tag() == "?") return ResolvePlain(node.Scalar());
      return node.Scalar();
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(ToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& kv : node) out[kv.first.Scalar()] = ToJson(kv.second);
      return out;
    }
  }
  return nullptr;
}

void Emit(YAML::Emitter& e, const Json& v) {
  if (v.is_object()) {
    if (v.empty()) {
      e << YAML::Flow << YAML::BeginMap << YAML::EndMap;
      return;
    }
    e << YAML::BeginMap;
    for (const auto& [key, item] : v.items()) {
      e << YAML::Key << key << YAML::Value;
      Emit(e, item);
    }
    e << YAML::EndMap;
  } else if (v.is_array()) {
    if (v.empty()) {
      e << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
      return;
    }
    e << YAML::BeginSeq;
    for (const auto& item : v) Emit(e, item);
    e << YAML::EndSeq;
  } else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (!ResolvePlain(s).is_string()) e << YAML::DoubleQuoted;
    e << s;
  } else if (v.is_null()) {
    e << YAML::Null;
  } else if (v.is_boolean()) {
    e << v.get<bool>();
  } else {
    e << v.dump();
  }
}

}  // namespace

Result<std::vector<YamlDocument>> ParseYamlDocuments(const std::string& name, const std::string& content) {
  std::vector<YamlDocument> docs;
  try {
    for (const YAML::Node& node : YAML::LoadAll(content)) {
      if (node.IsNull()) continue;
      docs.push_back(YamlDocument{ToJson(node), node.Mark().line + 1});
    }
  } catch (const YAML::Exception& e) {
    return InvalidArgument(name + ":" + std::to_string(e.mark.line + 1) + ":" +
                           std::to_string(e.mark.column + 1) + ": " + e.msg);
  }
  return docs;
}

std::string EmitYaml(const Json& value) {
  YAML::Emitter e;
  e.SetIndent(2);
  e.SetSeqFormat(YAML::Block);
  Emit(e, value);
  std::string out = e.c_str();
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

}  // namespace kkadm::config
