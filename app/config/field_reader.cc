// Typed reads of config document fields with kubeadm's error and unknown-field rules.
#include "app/config/field_reader.h"

#include <algorithm>
#include <cstdint>

#include "app/util/duration.h"
#include "app/util/printable.h"

namespace kkadm::config {

std::string ValueText(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

Status InvalidField(const std::string& origin, const std::string& path, const std::string& value,
                    const std::string& reason) {
  // The value, and the keys in the path, come from the file: quoted and escaped, never raw.
  return Status::Field({origin, util::EscapeNonPrintable(path),
                        "invalid value \"" + util::EscapeNonPrintable(value) + "\": " + reason});
}

void DecodeContext::Invalid(const std::string& path, const std::string& value,
                            const std::string& reason) {
  if (!status_.ok()) return;
  status_ = InvalidField(origin_, path, value, reason);
}

void DecodeContext::Unknown(const std::string& path) {
  std::string message = origin_ + ": " + util::EscapeNonPrintable(path) + ": unknown field";
  if (strict_) {
    if (status_.ok()) status_ = InvalidArgument(message);
  } else {
    warnings_.push_back(message);
  }
}

std::string Indexed(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

FieldReader::FieldReader(const Json& object, std::string path, DecodeContext& context)
    : object_(object), path_(std::move(path)), context_(context) {}

const Json* FieldReader::Get(const char* key) {
  seen_.insert(key);
  auto it = object_.find(key);
  if (it == object_.end() || it->is_null()) return nullptr;
  return &*it;
}

void FieldReader::String(const char* key, std::string& out) {
  const Json* v = Get(key);
  if (!v) return;
  if (!v->is_string()) return context_.Invalid(Path(key), ValueText(*v), "must be a string");
  out = v->get<std::string>();
}

void FieldReader::Int(const char* key, int& out) {
  const Json* v = Get(key);
  if (!v) return;
  if (!v->is_number_integer())
    return context_.Invalid(Path(key), ValueText(*v), "must be an integer");
  long long n = v->get<long long>();
  if (n < INT32_MIN || n > INT32_MAX)
    return context_.Invalid(Path(key), ValueText(*v), "out of range");
  out = static_cast<int>(n);
}

void FieldReader::Bool(const char* key, bool& out) {
  const Json* v = Get(key);
  if (!v) return;
  if (!v->is_boolean()) return context_.Invalid(Path(key), ValueText(*v), "must be a boolean");
  out = v->get<bool>();
}

void FieldReader::Duration(const char* key, config::Duration& out) {
  std::optional<config::Duration> d;
  OptionalDuration(key, d);
  if (d) out = *d;
}

void FieldReader::OptionalDuration(const char* key, std::optional<config::Duration>& out) {
  const Json* v = Get(key);
  if (!v) return;
  if (!v->is_string()) {
    return context_.Invalid(Path(key), ValueText(*v),
                            "must be a duration string such as \"24h0m0s\"");
  }
  auto d = util::ParseDuration(v->get<std::string>());
  if (!d) return context_.Invalid(Path(key), ValueText(*v), d.error().message());
  out = *d;
}

void FieldReader::StringList(const char* key, std::vector<std::string>& out) {
  const Json* v = Array(key);
  if (!v) return;
  std::vector<std::string> items;
  for (size_t i = 0; i < v->size(); ++i) {
    const Json& item = (*v)[i];
    if (!item.is_string())
      return context_.Invalid(Indexed(Path(key), i), ValueText(item), "must be a string");
    items.push_back(item.get<std::string>());
  }
  out = std::move(items);
}

void FieldReader::Args(const char* key, std::vector<Arg>& out) {
  const Json* v = Get(key);
  if (!v) return;
  std::vector<Arg> args;
  if (!context_.v1beta4()) {
    if (!v->is_object())
      return context_.Invalid(Path(key), ValueText(*v), "must be a map of strings in v1beta3");
    for (const auto& [name, value] : v->items()) {
      if (!value.is_string())
        return context_.Invalid(Path(key) + "." + name, ValueText(value), "must be a string");
      args.push_back(Arg{name, value.get<std::string>()});
    }
    std::sort(args.begin(), args.end(), [](const Arg& a, const Arg& b) { return a.name < b.name; });
  } else {
    if (!v->is_array()) {
      return context_.Invalid(Path(key), ValueText(*v),
                              "must be a list of {name, value} in v1beta4");
    }
    for (size_t i = 0; i < v->size(); ++i) {
      if (!(*v)[i].is_object())
        return context_.Invalid(Indexed(Path(key), i), ValueText((*v)[i]), "must be an object");
      FieldReader item((*v)[i], Indexed(Path(key), i), context_);
      Arg arg;
      item.String("name", arg.name);
      item.String("value", arg.value);
      item.Finish();
      args.push_back(std::move(arg));
    }
  }
  out = std::move(args);
}

const Json* FieldReader::Object(const char* key) {
  const Json* v = Get(key);
  if (v && !v->is_object()) {
    context_.Invalid(Path(key), ValueText(*v), "must be an object");
    return nullptr;
  }
  return v;
}

const Json* FieldReader::Array(const char* key) {
  const Json* v = Get(key);
  if (v && !v->is_array()) {
    context_.Invalid(Path(key), ValueText(*v), "must be a list");
    return nullptr;
  }
  return v;
}

void FieldReader::Finish() {
  for (const auto& [key, value] : object_.items()) {
    if (!seen_.count(key)) context_.Unknown(Path(key));
  }
}

}  // namespace kkadm::config
