// JSON values to YAML text in go-yaml v2's block layout (see yaml.h); each string is written by
// the one scalar rule of style.cc.
#include <string>

#include "app/util/yaml/scalar.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::util::yaml {
namespace {

// Null, booleans and numbers as JSON writes them; strings by the scalar rule.
template <class Json>
std::string ScalarOf(const Json& value, int indent) {
  if (value.is_string()) {
    return ScalarText(value.template get_ref<const std::string&>(), ScalarPlace::kValue, indent);
  }
  if (value.is_null()) return "null";
  return value.dump();
}

template <class Json>
bool IsNested(const Json& v) {
  return (v.is_object() || v.is_array()) && !v.empty();
}

template <class Json>
void EmitMapping(const Json& object, int indent, bool first_inline, std::string& out);
template <class Json>
void EmitSequence(const Json& array, int indent, bool first_inline, std::string& out);

// What follows "key:" for `value` under a key at `indent`.
template <class Json>
void EmitAfterKey(const Json& value, int indent, std::string& out) {
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
    out += ' ' + ScalarOf(value, indent) + '\n';
  }
}

// What follows "- " (or ": " after a complex key) for `value` at `indent`: a nested mapping or
// sequence starts on the same line.
template <class Json>
void EmitInline(const Json& value, int indent, std::string& out) {
  if (value.is_object() && IsNested(value)) {
    EmitMapping(value, indent + 2, true, out);
  } else if (IsNested(value)) {
    EmitSequence(value, indent + 2, true, out);
  } else if (value.is_object()) {
    out += "{}\n";
  } else if (value.is_array()) {
    out += "[]\n";
  } else {
    out += ScalarOf(value, indent) + '\n';
  }
}

// libyaml writes a key as "key:" only when it is one line of at most 128 bytes; else as a
// complex key, "? key" and then ": value" on the next line.
bool IsSimpleKey(const std::string& key) {
  return key.size() <= 128 && key.find_first_of("\r\n") == std::string::npos &&
         key.find("\u0085") == std::string::npos && key.find("\u2028") == std::string::npos &&
         key.find("\u2029") == std::string::npos;
}

// `first_inline`: the first key goes right after a sequence's "- ".
template <class Json>
void EmitMapping(const Json& object, int indent, bool first_inline, std::string& out) {
  bool first = true;
  const std::string pad(static_cast<size_t>(indent), ' ');
  for (const auto& [key, value] : object.items()) {
    if (!(first && first_inline)) out += pad;
    first = false;
    if (IsSimpleKey(key)) {
      out += ScalarText(key, ScalarPlace::kKey, indent) + ':';
      EmitAfterKey(value, indent, out);
    } else {
      out += "? " + ScalarText(key, ScalarPlace::kValue, indent) + '\n' + pad + ": ";
      EmitInline(value, indent, out);
    }
  }
}

template <class Json>
void EmitSequence(const Json& array, int indent, bool first_inline, std::string& out) {
  bool first = true;
  for (const Json& item : array) {
    if (!(first && first_inline)) out.append(static_cast<size_t>(indent), ' ');
    first = false;
    out += "- ";
    EmitInline(item, indent, out);
  }
}

template <class Json>
std::string EmitDocument(const Json& document) {
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
    out = ScalarOf(document, 0) + '\n';
  }
  return out;
}

}  // namespace

std::string Emit(const nlohmann::json& value) { return EmitDocument(value); }

std::string Emit(const nlohmann::ordered_json& value) { return EmitDocument(value); }

}  // namespace kkadm::util::yaml
