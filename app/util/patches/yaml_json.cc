// YAML to JSON conversion for patch files (the one adapter calling yaml-cpp for patches).
#include "app/util/patches/yaml_json.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "app/util/yaml_scalar_syntax.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

// kubeadm reads patch files with sigs.k8s.io/yaml, i.e. goyaml.v2, which resolves plain scalars
// by YAML 1.1 rules: yes/no/on/off/y/n are booleans, 0755 is octal, 1_000 is 1000. kkadm resolves
// them the same way so a patch means what it means to kubeadm.
std::optional<json> ResolveWord(const std::string& s) {
  static const std::set<std::string> kTrue = {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE",
                                              "on", "On", "ON"};
  static const std::set<std::string> kFalse = {"n", "N", "no", "No", "NO", "false", "False", "FALSE",
                                               "off", "Off", "OFF"};
  static const std::set<std::string> kNull = {"", "~", "null", "Null", "NULL"};
  if (kTrue.contains(s)) return json(true);
  if (kFalse.contains(s)) return json(false);
  if (kNull.contains(s)) return json(nullptr);
  return std::nullopt;
}

// Go's strconv.ParseInt(s, 0, 64), then ParseUint: optional sign, 0x/0o/0b prefixes, a leading 0
// for octal.
std::optional<json> ParseGoInteger(std::string_view s) {
  bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && std::string_view("xXoObB").find(s[1]) != std::string_view::npos) {
    base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  if (s.empty() || s[0] == '-' || s[0] == '+') return std::nullopt;
  std::string digits(s);
  errno = 0;
  char* end = nullptr;
  unsigned long long u = std::strtoull(digits.c_str(), &end, base);
  if (errno != 0 || *end != '\0') return std::nullopt;
  if (!negative) {
    if (u <= static_cast<unsigned long long>(INT64_MAX)) return json(static_cast<std::int64_t>(u));
    return json(static_cast<std::uint64_t>(u));
  }
  if (u > static_cast<unsigned long long>(INT64_MAX) + 1) return std::nullopt;
  return json(static_cast<std::int64_t>(0 - u));
}

std::optional<json> ParseFloat(const std::string& s) {
  if (!IsYamlDecimalFloat(s, Underscores::kRejected)) return std::nullopt;
  return json(std::strtod(s.c_str(), nullptr));
}

Result<json> ResolvePlainScalar(const std::string& s) {
  if (std::optional<json> word = ResolveWord(s)) return *word;
  if (IsYamlInfOrNan(s)) {
    return InvalidArgument(fmt::format("value {} cannot be represented in JSON", s));
  }
  // Only scalars starting like a number are numbers (goyaml.v2's hint table).
  if (std::string_view("+-.0123456789").find(s[0]) == std::string_view::npos) return json(s);
  std::string plain = s;
  std::erase(plain, '_');
  if (s[0] != '.') {
    if (std::optional<json> i = ParseGoInteger(plain)) return *i;
  } else {
    plain = s;
  }
  if (std::optional<json> f = ParseFloat(plain)) return *f;
  return json(s);
}

Result<json> ScalarToJson(const YAML::Node& node) {
  const std::string& tag = node.Tag();
  if (tag == "!" || tag == "tag:yaml.org,2002:str") return json(node.Scalar());
  if (tag == "?" || tag.rfind("tag:yaml.org,2002:", 0) == 0) return ResolvePlainScalar(node.Scalar());
  return json(node.Scalar());  // an application tag: keep the text
}

// Aliases let a small file expand into a huge or endless tree ("billion laughs", an alias inside
// its own anchor): cap the depth and the number of nodes converted.
struct Budget {
  int nodes_left = 100'000;  // a control-plane Pod is a few hundred
};
constexpr int kMaxDepth = 200;

Result<json> NodeToJson(const YAML::Node& node, int depth, Budget& budget) {
  if (depth > kMaxDepth || --budget.nodes_left < 0) {
    return InvalidArgument("document is nested too deeply or expands to too many values");
  }
  switch (node.Type()) {
    case YAML::NodeType::Undefined:
    case YAML::NodeType::Null:
      return json(nullptr);
    case YAML::NodeType::Scalar:
      return ScalarToJson(node);
    case YAML::NodeType::Sequence: {
      json out = json::array();
      for (const YAML::Node& item : node) {
        Result<json> v = NodeToJson(item, depth + 1, budget);
        if (!v) return v.error();
        out.push_back(std::move(*v));
      }
      return out;
    }
    case YAML::NodeType::Map: {
      json out = json::object();
      for (const auto& kv : node) {
        if (!kv.first.IsScalar()) return InvalidArgument("map keys must be scalars");
        Result<json> v = NodeToJson(kv.second, depth + 1, budget);
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
    Budget budget;
    Result<json> v = NodeToJson(doc, 0, budget);
    if (!v) return v.error();
    out.push_back(std::move(*v));
  }
  return out;
}

}  // namespace kkadm::util::patches
