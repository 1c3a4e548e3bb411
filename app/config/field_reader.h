// FieldReader: typed, path-tracking reads of one JSON object decoded from a config document, with
// kubeadm's strictness rules (wrong types are errors; unknown fields warn or fail).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::config {

using Json = nlohmann::ordered_json;

enum class ApiVersion { kV1beta3, kV1beta4 };

// Shared state of decoding one document: where it came from (for messages), its version,
// strictness, the first error and the warnings.
class DecodeContext {
 public:
  // `origin` prefixes every message: "kubeadm.yaml: InitConfiguration (document 1)".
  DecodeContext(std::string origin, ApiVersion version, bool strict,
                std::vector<std::string>& warnings)
      : origin_(std::move(origin)), version_(version), strict_(strict), warnings_(warnings) {}

  ApiVersion version() const { return version_; }
  bool v1beta4() const { return version_ == ApiVersion::kV1beta4; }
  const std::string& origin() const { return origin_; }

  // Records InvalidField(origin, path, value, reason) unless an error is already kept.
  void Invalid(const std::string& path, const std::string& value, const std::string& reason);
  // An unknown field: an error when strict, else a warning.
  void Unknown(const std::string& path);
  Status status() const { return status_; }

 private:
  std::string origin_;
  ApiVersion version_;
  bool strict_;
  std::vector<std::string>& warnings_;
  Status status_;
};

// The text a message shows for a value: a string's content, else its JSON form.
std::string ValueText(const Json& value);
// The error "<origin>: <path>: invalid value "<value>": <reason>", the one shape of every config
// error, carrying its field (Status::field) so a command can name the flag that set it.
Status InvalidField(const std::string& origin, const std::string& path, const std::string& value,
                    const std::string& reason);

class FieldReader {
 public:
  // `object` must outlive the reader; `path` is the object's own path ("" at the top).
  FieldReader(const Json& object, std::string path, DecodeContext& context);

  void String(const char* key, std::string& out);
  void Int(const char* key, int& out);
  void Bool(const char* key, bool& out);
  void Duration(const char* key, config::Duration& out);
  void OptionalDuration(const char* key, std::optional<config::Duration>& out);
  void StringList(const char* key, std::vector<std::string>& out);
  // extraArgs / kubeletExtraArgs: a map in v1beta3, a list of {name, value} in v1beta4.
  void Args(const char* key, std::vector<Arg>& out);
  // The member if it is an object (nullptr when absent or null; an error for another type).
  const Json* Object(const char* key);
  // The member if it is an array (nullptr when absent or null; an error for another type).
  const Json* Array(const char* key);
  // Marks a key as known without reading it (fields handled elsewhere, apiVersion/kind).
  void Skip(const char* key) { seen_.insert(key); }
  // Reports every key not read as unknown.
  void Finish();

  std::string Path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  DecodeContext& context() { return context_; }

 private:
  const Json* Get(const char* key);
  const Json& object_;
  std::string path_;
  DecodeContext& context_;
  std::set<std::string> seen_;
};

// "<path>[<index>]".
std::string Indexed(const std::string& path, size_t index);

}  // namespace kkadm::config
