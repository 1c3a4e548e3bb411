// FlattenJson: a recursive walk that names each scalar.
#include "app/util/json_fields.h"

namespace kkadm::util {
namespace {

bool IsNamedEntry(const nlohmann::json& entry) {
  return entry.is_object() && entry.contains("name") && entry["name"].is_string();
}

void Flatten(const nlohmann::json& doc, const std::string& name, std::vector<JsonField>& out);

void FlattenList(const nlohmann::json& list, const std::string& name, std::vector<JsonField>& out) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json& entry = list[i];
    if (!IsNamedEntry(entry)) {
      Flatten(entry, name + "[" + std::to_string(i) + "]", out);
      continue;
    }
    const std::string entry_name = name + "[" + entry["name"].get<std::string>() + "]";
    if (entry.size() == 2 && entry.contains("value")) {
      Flatten(entry["value"], entry_name, out);
      continue;
    }
    nlohmann::json rest = entry;
    rest.erase("name");
    Flatten(rest, entry_name, out);
  }
}

void Flatten(const nlohmann::json& doc, const std::string& name, std::vector<JsonField>& out) {
  if (doc.is_object()) {
    for (const auto& [key, value] : doc.items()) {
      Flatten(value, name.empty() ? key : name + "." + key, out);
    }
  } else if (doc.is_array()) {
    FlattenList(doc, name, out);
  } else {
    out.push_back({name, doc.is_string()
                             ? doc.get<std::string>()
                             : doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)});
  }
}

}  // namespace

std::vector<JsonField> FlattenJson(const nlohmann::json& doc, const std::string& prefix) {
  std::vector<JsonField> fields;
  Flatten(doc, prefix, fields);
  return fields;
}

bool FieldIsUnder(std::string_view name, std::string_view field) {
  if (!name.starts_with(field)) return false;
  return name.size() == field.size() || name[field.size()] == '.' || name[field.size()] == '[';
}

}  // namespace kkadm::util
