// A JSON document as flat field names and values, the way a user names a field of a config file:
// "apiServer.certSANs[0]", and for a list of named entries (v1beta4's extraArgs, extraVolumes)
// the entry's name: "apiServer.extraArgs[enable-admission-plugins]".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace kkadm::util {

struct JsonField {
  std::string name;
  std::string value;  // a string as it is; other scalars as JSON ("true", "3", "null")
};

// Every scalar of `doc`, depth first in key order, named under `prefix` ("" for none). An entry
// {name: N, value: V} of a list is the field "<list>[N]" = V; other entries with a name are
// "<list>[N].<key>"; entries without one are numbered. Empty objects and lists have no field.
std::vector<JsonField> FlattenJson(const nlohmann::json& doc, const std::string& prefix = "");

// Whether `name` is `field` or a field under it ("apiServer" covers "apiServer.certSANs[0]").
bool FieldIsUnder(std::string_view name, std::string_view field);

}  // namespace kkadm::util
