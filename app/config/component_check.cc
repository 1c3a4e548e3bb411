// Unknown fields and type errors in component configuration documents (see component_check.h).
#include "app/config/component_check.h"

#include <cstdint>
#include <optional>
#include <string>

#include "app/config/component_fields.h"
#include "app/util/ascii.h"
#include "app/util/duration.h"

namespace kkadm::config {
namespace {

using Fields = std::unordered_map<std::string, FieldKind>;

std::optional<std::string> IntegerProblem(const Json& v, long long min, long long max) {
  if (!v.is_number_integer()) return "must be an integer";
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) {
    return "out of range";
  }
  if (!v.is_number_unsigned() && (v.get<long long>() < min || v.get<long long>() > max)) {
    return "out of range";
  }
  return std::nullopt;
}

std::optional<std::string> DurationProblem(const Json& v) {
  if (!v.is_string()) return "must be a duration string such as \"24h0m0s\"";
  auto d = util::ParseDuration(v.get<std::string>());
  if (!d) return d.error().message();
  return std::nullopt;
}

// resource.Quantity's form: ^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$, or a JSON number.
bool IsQuantity(const Json& v) {
  if (v.is_number()) return true;
  if (!v.is_string()) return false;
  util::Scanner in(v.get_ref<const std::string&>());
  in.ConsumeAnyOf("+-");
  if (in.Span([](char c) { return util::IsAsciiDigit(c) || c == '.'; }).empty()) return false;
  in.Span(
      [](char c) { return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos; });
  in.ConsumeAnyOf("+-");
  in.Span(util::IsAsciiDigit);
  return in.AtEnd();
}

// Why a scalar value cannot decode into a field of `kind`, or nullopt.
std::optional<std::string> ScalarProblem(const Json& v, FieldKind kind) {
  switch (kind) {
    case FieldKind::kString:
      return v.is_string() ? std::nullopt : std::optional<std::string>("must be a string");
    case FieldKind::kTime:
      return v.is_string()
                 ? std::nullopt
                 : std::optional<std::string>("must be a time such as \"2024-01-02T15:04:05Z\"");
    case FieldKind::kBool:
      return v.is_boolean() ? std::nullopt : std::optional<std::string>("must be a boolean");
    case FieldKind::kInt32:
      return IntegerProblem(v, INT32_MIN, INT32_MAX);
    case FieldKind::kInt64:
      return IntegerProblem(v, INT64_MIN, INT64_MAX);
    case FieldKind::kUint32:
      return IntegerProblem(v, 0, UINT32_MAX);
    case FieldKind::kFloat:
      return v.is_number() ? std::nullopt : std::optional<std::string>("must be a number");
    case FieldKind::kDuration:
      return DurationProblem(v);
    case FieldKind::kDurationOrInt:
      if (v.is_number_integer()) return IntegerProblem(v, INT64_MIN, INT64_MAX);
      return DurationProblem(v);
    case FieldKind::kQuantity:
      return IsQuantity(v) ? std::nullopt
                           : std::optional<std::string>("must be a quantity such as \"100Mi\"");
    default:
      return std::nullopt;
  }
}

// The kind of a free-form map's values and of a list's items.
FieldKind ElementKind(FieldKind kind) {
  switch (kind) {
    case FieldKind::kBoolMap:
      return FieldKind::kBool;
    case FieldKind::kQuantityMap:
      return FieldKind::kQuantity;
    case FieldKind::kStringListMap:
      return FieldKind::kStringList;
    default:
      return FieldKind::kString;
  }
}

class Walker {
 public:
  Walker(const Fields& fields, DecodeContext& context) : fields_(fields), context_(context) {}

  // `schema` is the table's path of `object` ("a[].b"), `shown` the document's ("a[2].b").
  void Object(const Json& object, const std::string& schema, const std::string& shown) {
    for (const auto& [key, value] : object.items()) {
      const std::string field_schema = schema.empty() ? key : schema + "." + key;
      const std::string field_shown = shown.empty() ? key : shown + "." + key;
      auto it = fields_.find(field_schema);
      if (it == fields_.end()) {
        context_.Unknown(field_shown);
      } else {
        Value(value, it->second, field_schema, field_shown);
      }
    }
  }

 private:
  void Value(const Json& v, FieldKind kind, const std::string& schema, const std::string& shown) {
    if (v.is_null()) return;  // Go leaves the field as it is
    switch (kind) {
      case FieldKind::kObject:
        if (!v.is_object()) return context_.Invalid(shown, ValueText(v), "must be an object");
        return Object(v, schema, shown);
      case FieldKind::kObjectList:
      case FieldKind::kStringList:
        if (!v.is_array()) return context_.Invalid(shown, ValueText(v), "must be a list");
        for (size_t i = 0; i < v.size(); ++i) {
          if (kind == FieldKind::kStringList) {
            Value(v[i], FieldKind::kString, schema, Indexed(shown, i));
          } else if (!v[i].is_null() && !v[i].is_object()) {
            context_.Invalid(Indexed(shown, i), ValueText(v[i]), "must be an object");
          } else if (!v[i].is_null()) {
            Object(v[i], schema + "[]", Indexed(shown, i));
          }
        }
        return;
      case FieldKind::kStringMap:
      case FieldKind::kBoolMap:
      case FieldKind::kStringListMap:
      case FieldKind::kQuantityMap:
        if (!v.is_object()) return context_.Invalid(shown, ValueText(v), "must be a map");
        for (const auto& [key, item] : v.items())
          Value(item, ElementKind(kind), schema, shown + "." + key);
        return;
      default:
        if (auto problem = ScalarProblem(v, kind)) context_.Invalid(shown, ValueText(v), *problem);
    }
  }

  const Fields& fields_;
  DecodeContext& context_;
};

}  // namespace

void CheckComponentConfig(const Json& doc, std::string_view kind, DecodeContext& context) {
  const Fields* fields = ComponentFields(kind);
  if (fields == nullptr || !doc.is_object()) return;
  Walker(*fields, context).Object(doc, "", "");
}

}  // namespace kkadm::config
