// YAML to JSON conversion for patch files (the one adapter calling yaml-cpp for patches).
#include "app/util/patches/yaml_json.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

bool IsNullScalar(const std::string& s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// An integer in YAML 1.2 core form, or nothing.
std::optional<json> ParseInteger(const std::string& s) {
  static const std::regex kDecimal("[-+]?[0-9]+");
  static const std::regex kHex("0x[0-9a-fA-F]+");
  static const std::regex kOctal("0o[0-7]+");
  int base = 10;
  std::string digits = s;
  if (std::regex_match(s, kHex)) {
    base = 16;
    digits = s.substr(2);
  } else if (std::regex_match(s, kOctal)) {
    base = 8;
    digits = s.substr(2);
  } else if (!std::regex_match(s, kDecimal)) {
    return std::nullopt;
  }
  errno = 0;
  char* end = nullptr;
  if (digits[0] != '-') {
    unsigned long long u = std::strtoull(digits.c_str(), &end, base);
    if (errno == 0 && *end == '\0') {
      if (u <= static_cast<unsigned long long>(INT64_MAX)) return json(static_cast<std::int64_t>(u));
      return json(static_cast<std::uint64_t>(u));
    }
  } else {
    long long v = std::strtoll(digits.c_str(), &end, base);
    if (errno == 0 && *end == '\0') return json(static_cast<std::int64_t>(v));
  }
  // Out of the 64-bit range: keep the precision a float gives, as Go's float64 does.
  return json(std::strtod(digits.c_str(), nullptr));
}

std::optional<json> ParseFloat(const std::string& s) {
  static const std::regex kFloat("[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?");
  if (!std::regex_match(s, kFloat)) return std::nullopt;
  return json(std::strtod(s.c_str(), nullptr));
}

Result<json> ResolvePlainScalar(const std::string& s) {
  if (IsNullScalar(s)) return json(nullptr);
  if (s == "true" || s == "True" || s == "TRUE") return json(true);
  if (s == "false" || s == "False" || s == "FALSE") return json(false);
  if (auto i = ParseInteger(s)) return *i;
  if (auto f = ParseFloat(s)) return *f;
  static const std::regex kSpecialFloat("[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)");
  if (std::regex_match(s, kSpecialFloat)) {
    return InvalidArgument(fmt::format("value {} cannot be represented in JSON", s));
  }
  return json(s);
}

Result<json> ScalarToJson(const YAML::Node& node) {
  const std::string& tag = node.Tag();
  if (tag == "!" || tag == "tag:yaml.org,2002:str") return json(node.Scalar());
  if (tag == "?" || tag.rfind("tag:yaml.org,2002:", 0) == 0) return ResolvePlainScalar(node.Scalar());
  return json(node.Scalar());  // an application tag: keep the text
}

Result<json> NodeToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return json(nullptr);
    case YAML::NodeType::Scalar:
      return ScalarToJson(node);
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const YAML::Node& item : node) {
        Result<json> v = NodeToJson(item);
        if (!v) return v.error();
        out.push_back(std::move(*v));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) return InvalidArgument("map keys must be scalars");
        Result<json> v = NodeToJson(kv.second);
        if (!v) return v.error();
        out[kv.first.Scalar()] = std::move(*v);
      }
      return out;
    }
  }
  return Internal("unknown YAML node type");
}

}  // namespace

Result<std::vector<json>> YamlDocumentsToJson(std::string_view text) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception& e) {
    return InvalidArgument(fmt::format("line {}, column {}: {}", e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  std::vector<json> out;
  for (const YAML::Node& doc : docs) {
    if (!doc.IsDefined() || doc.IsNull()) continue;
    Result<json> v = NodeToJson(doc);
    if (!v) return v.error();
    out.push_back(std::move(*v));
  }
  return out;
}

}  // namespace kkadm::util::patches
