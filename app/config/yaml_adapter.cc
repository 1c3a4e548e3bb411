// yaml-cpp <-> nlohmann::json conversion; the only file that calls yaml-cpp for configs.
#include "app/config/yaml_adapter.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "app/util/yaml_scalar_syntax.h"

namespace kkadm::config {
namespace {

using Json = nlohmann::ordered_json;

// Resolves a plain (unquoted) scalar the way Go's yaml.v2 does for the common cases.
Json ResolvePlain(const std::string& s) {
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
  if (util::IsYamlDecimalInt(s)) {
    errno = 0;
    long long v = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno == 0) return v;
    return std::strtod(digits.c_str(), nullptr);
  }
  if (util::IsYamlHexInt(s)) return std::strtoll(digits.c_str() + 2, nullptr, 16);
  if (s != "." && util::IsYamlPointOrExponentFloat(s)) return std::strtod(digits.c_str(), nullptr);
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

// One scalar as YAML text; yaml-cpp does the escaping, and strings that would read back as
// another type are double-quoted.
std::string ScalarText(const Json& v) {
  if (v.is_object()) return "{}";
  if (v.is_array()) return "[]";
  if (v.is_null()) return "null";
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (!v.is_string()) return v.dump();
  const auto& s = v.get_ref<const std::string&>();
  // Timestamps are quoted as Go's yaml does, since YAML 1.1 readers resolve them to times.
  YAML::Emitter e;
  if (!ResolvePlain(s).is_string() || util::LooksLikeYamlTimestamp(s)) e << YAML::DoubleQuoted;
  e << s;
  // The emitter reports misuse through good(), not exceptions; a JSON string is also a valid
  // YAML double-quoted scalar.
  if (!e.good()) return v.dump();
  return e.c_str();
}

bool IsBlock(const Json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

void EmitBlock(const Json& v, size_t indent, std::string& out);

// Go's yaml layout: sequence items sit at their key's indentation ("key:\n- a").
void EmitSequence(const Json& v, size_t indent, std::string& out) {
  std::string pad(indent, ' ');
  for (const auto& item : v) {
    if (item.is_object() && !item.empty()) {
      std::string body;
      EmitBlock(item, indent + 2, body);
      out += pad + "- " + body.substr(indent + 2);
    } else if (IsBlock(item)) {
      out += pad + "-\n";
      EmitSequence(item, indent + 2, out);
    } else {
      out += pad + "- " + ScalarText(item) + "\n";
    }
  }
}

void EmitBlock(const Json& v, size_t indent, std::string& out) {
  if (v.is_array()) return EmitSequence(v, indent, out);
  std::string pad(indent, ' ');
  for (const auto& [key, item] : v.items()) {
    out += pad + ScalarText(key) + ":";
    if (item.is_object() && !item.empty()) {
      out += "\n";
      EmitBlock(item, indent + 2, out);
    } else if (item.is_array() && !item.empty()) {
      out += "\n";
      EmitSequence(item, indent, out);
    } else {
      out += " " + ScalarText(item) + "\n";
    }
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
  if (!IsBlock(value)) return ScalarText(value) + "\n";
  std::string out;
  EmitBlock(value, 0, out);
  return out;
}

}  // namespace kkadm::config
