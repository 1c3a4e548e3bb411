// YAML <-> JSON for Kubernetes objects (see kube_yaml.h).
#include "app/util/kube_yaml.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>

#include "app/util/yaml_scalar_syntax.h"

namespace kkadm::util {
namespace {

using nlohmann::json;

bool IsNullWord(const std::string& s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// YAML 1.1 booleans, as go-yaml v2 resolves them.
std::optional<bool> BoolWord(const std::string& s) {
  static const char* const kTrue[] = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                      "True", "TRUE", "on",  "On",  "ON"};
  static const char* const kFalse[] = {"n",     "N",     "no",  "No",  "NO", "false",
                                       "False", "FALSE", "off", "Off", "OFF"};
  for (const char* word : kTrue) {
    if (s == word) return true;
  }
  for (const char* word : kFalse) {
    if (s == word) return false;
  }
  return std::nullopt;
}

// True when a plain scalar `s` would be read back as something other than a string.
bool ResolvesToNonString(const std::string& s) {
  return IsNullWord(s) || BoolWord(s).has_value() || IsYaml11Int(s) || IsYaml11Float(s);
}

bool HasControlChars(const std::string& s) {
  for (unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) return true;
  }
  return false;
}

// libyaml's analysis of whether a scalar may be written plain in block context.
bool PlainAllowed(const std::string& s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ') return false;
  if (s.rfind("---", 0) == 0 || s.rfind("...", 0) == 0) return false;
  if (std::string_view("#,[]{}&*!|>'\"%@`").find(s.front()) != std::string_view::npos) {
    return false;
  }
  auto blank_after = [&s](std::size_t i) { return i + 1 >= s.size() || s[i + 1] == ' '; };
  if ((s.front() == '?' || s.front() == ':' || s.front() == '-') && blank_after(0)) return false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == ':' && blank_after(i)) return false;
    if (s[i] == '#' && s[i - 1] == ' ') return false;
  }
  return !HasControlChars(s);
}


std::string SingleQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += (c == '\'') ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string ScalarText(const json& value) {
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (HasControlChars(s) || ResolvesToNonString(s)) return YamlDoubleQuoted(s);
    return PlainAllowed(s) ? s : SingleQuoted(s);
  }
  if (value.is_null()) return "null";
  return value.dump();  // numbers and booleans
}

bool IsNested(const json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

void EmitMapping(const json& object, int indent, bool first_inline, std::string& out);
void EmitSequence(const json& array, int indent, bool first_inline, std::string& out);

// Writes what follows "key:" for `value` nested under a key at `indent`.
void EmitAfterKey(const json& value, int indent, std::string& out) {
  if (value.is_object() && !value.empty()) {
    out += '\n';
    EmitMapping(value, indent + 2, false, out);
  } else if (value.is_array() && !value.empty()) {
    out += '\n';
    EmitSequence(value, indent, false, out);  // go-yaml v2 does not indent these
  } else if (value.is_object()) {
    out += " {}\n";
  } else if (value.is_array()) {
    out += " []\n";
  } else {
    out += ' ' + ScalarText(value) + '\n';
  }
}

void EmitMapping(const json& object, int indent, bool first_inline, std::string& out) {
  bool first = true;
  for (const auto& [key, value] : object.items()) {
    if (!(first && first_inline)) out.append(indent, ' ');
    first = false;
    out += ScalarText(json(key)) + ':';
    EmitAfterKey(value, indent, out);
  }
}

void EmitSequence(const json& array, int indent, bool first_inline, std::string& out) {
  bool first = true;
  for (const json& item : array) {
    if (!(first && first_inline)) out.append(indent, ' ');
    first = false;
    out += "- ";
    if (item.is_object() && IsNested(item)) {
      EmitMapping(item, indent + 2, true, out);
    } else if (IsNested(item)) {
      EmitSequence(item, indent + 2, true, out);
    } else if (item.is_object()) {
      out += "{}\n";
    } else if (item.is_array()) {
      out += "[]\n";
    } else {
      out += ScalarText(item) + '\n';
    }
  }
}

json PlainScalar(const std::string& s) {
  if (IsNullWord(s)) return nullptr;
  if (auto b = BoolWord(s)) return *b;
  std::string digits;
  for (char c : s) {
    if (c != '_') digits += c;
  }
  try {
    if (IsYaml11Int(s)) return std::stoll(digits, nullptr, 0);
    if (IsYamlDecimalFloat(s, Underscores::kAllowed)) return std::stod(digits);
  } catch (const std::exception&) {
    // Out of range or a form JSON cannot hold (0o17, .inf): keep the text.
  }
  return s;
}

json NodeToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      json object = json::object();
      for (const auto& entry : node) {
        object[entry.first.as<std::string>()] = NodeToJson(entry.second);
      }
      return object;
    }
    case YAML::NodeType::Sequence: {
      json array = json::array();
      for (const auto& item : node) array.push_back(NodeToJson(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      // yaml-cpp tags quoted scalars "!" and plain ones "?".
      if (node.Tag() == "!") return node.Scalar();
      return PlainScalar(node.Scalar());
    default:
      return nullptr;
  }
}

}  // namespace

std::string YamlDoubleQuoted(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02X", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string ToKubernetesYaml(const json& document) {
  std::string out;
  if (document.is_object() && !document.empty()) {
    EmitMapping(document, 0, false, out);
  } else if (document.is_array() && !document.empty()) {
    EmitSequence(document, 0, false, out);
  } else if (document.is_object()) {
    out = "{}\n";
  } else if (document.is_array()) {
    out = "[]\n";
  } else {
    out = ScalarText(document) + '\n';
  }
  return out;
}

Result<json> YamlToJson(std::string_view text) {
  try {
    return NodeToJson(YAML::Load(std::string(text)));
  } catch (const YAML::Exception& e) {
    return InvalidArgument(std::string("invalid YAML: ") + e.what());
  }
}

}  // namespace kkadm::util
