// Stored inputs, fingerprints and their differences.
#include "app/phases/journal/fingerprint.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "app/util/crypto.h"

namespace kkadm::phases::journal {
namespace {

std::map<std::string, std::string> ByName(const std::vector<workflow::PhaseInput>& inputs) {
  std::map<std::string, std::string> by_name;
  for (const auto& input : inputs) by_name[input.name] = input.value;
  return by_name;
}

// A value as the difference shows it: a JSON string (quoted, control bytes escaped); a long one
// (an embedded certificate) by the start of its hash.
std::string Shown(const std::map<std::string, std::string>& inputs, const std::string& name) {
  auto it = inputs.find(name);
  if (it == inputs.end()) return "(none)";
  const std::string& value = it->second;
  if (value.size() > 200) return "sha256:" + util::Sha256Hex(value).substr(0, 16) + "…";
  return nlohmann::json(value).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::vector<workflow::PhaseInput> StoredInputs(const std::vector<workflow::PhaseInput>& inputs) {
  std::vector<workflow::PhaseInput> stored;
  stored.reserve(inputs.size());
  for (const auto& input : inputs) {
    stored.push_back(
        {input.name, input.secret ? "sha256:" + util::Sha256Hex(input.value) : input.value, false});
  }
  std::stable_sort(stored.begin(), stored.end(),
                   [](const auto& a, const auto& b) { return a.name < b.name; });
  return stored;
}

std::string Fingerprint(const std::vector<workflow::PhaseInput>& stored) {
  std::string text;
  for (const auto& input : stored) text += input.name + "=" + input.value + "\n";
  return util::Sha256Hex(text);
}

std::vector<std::string> InputDifferences(const std::vector<workflow::PhaseInput>& before,
                                          const std::vector<workflow::PhaseInput>& now) {
  const auto old_values = ByName(before);
  const auto new_values = ByName(now);
  std::map<std::string, bool> names;
  for (const auto& [name, value] : old_values) names[name] = true;
  for (const auto& [name, value] : new_values) names[name] = true;
  std::vector<std::string> lines;
  for (const auto& [name, unused] : names) {
    auto a = old_values.find(name);
    auto b = new_values.find(name);
    if (a != old_values.end() && b != new_values.end() && a->second == b->second) continue;
    lines.push_back(name + " " + Shown(old_values, name) + " → " + Shown(new_values, name));
  }
  return lines;
}

}  // namespace kkadm::phases::journal
