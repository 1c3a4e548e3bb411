// kkadm's one YAML adapter: YAML text to nlohmann JSON values and JSON values back to YAML text,
// read and written as kubeadm's sigs.k8s.io/yaml v1.4.0 (go-yaml v2) does, for every
// dialect kkadm handles: kubeadm configuration files, Kubernetes objects and manifests,
// kubeconfigs, patch files and printed output. yaml-cpp parses; its exceptions stop in read.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util::yaml {

// How a text is read. Whatever the options, plain scalars mean what they mean to go-yaml v2
// (YAML 1.1): y/yes/on/true and n/no/off/false are booleans, ~ and null are null, 0755 is octal,
// 0x1F, 0o17, 0b101 and 1_000 are integers, 1.5 and 1e3 floats; .inf and .nan are refused because
// JSON cannot hold them; timestamps stay strings. Quoted and !!str scalars are strings; map keys
// are their text; a key repeated in one map is an error naming it. A text is refused at once,
// naming the bound, when it passes one of limits.h's (size, documents, nesting, values and bytes
// counting what aliases expand to), when it is not UTF-8 or holds control characters.
struct ReadOptions {
  // Names the text in errors: "<source>:<line>:<column>: <reason>" (1-based); when empty,
  // "line <line>, column <column>: <reason>".
  std::string source;
};

// One document of a YAML stream and the line where it starts (1-based).
struct Document {
  nlohmann::ordered_json value;
  int line = 1;
};

// Every document of `text` that is not empty, objects keeping the file's key order (so messages
// can follow the file). InvalidArgument on a syntax error or a value JSON cannot hold.
Result<std::vector<Document>> ReadDocumentsInFileOrder(std::string_view text,
                                                       const ReadOptions& options = {});

// Every document of `text` that is not empty (empty ones and ones holding only comments are
// skipped), keys sorted. Errors as ReadDocumentsInFileOrder.
Result<std::vector<nlohmann::json>> ReadDocuments(std::string_view text,
                                                  const ReadOptions& options = {});

// The first document of `text` (null when it has none); what follows it is not parsed.
Result<nlohmann::json> Read(std::string_view text, const ReadOptions& options = {});

// `value` as go-yaml v2 writes it: block style, two-space indentation, sequences not indented
// under their key, {} and [] for empty ones, keys in the object's order (nlohmann::json keeps them
// sorted, as Go's marshalling of maps and structs through JSON does; ordered_json as inserted).
// Strings are written as StringScalar says. Ends with "\n".
std::string Emit(const nlohmann::json& value);
std::string Emit(const nlohmann::ordered_json& value);

// One string as go-yaml v2 writes a map key or a one-line value: plain when it reads back as the
// same string, else 'single-quoted', else "double-quoted" with escapes (control characters,
// leading or trailing spaces after a break, line breaks). A multi-line value Emit writes as a
// literal block instead; this one-line form double-quotes it.
std::string StringScalar(std::string_view text);

}  // namespace kkadm::util::yaml
