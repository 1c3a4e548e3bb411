// Applying a PatchSet to one target: JSON patch and merge patch through nlohmann_json's own
// implementations, strategic merge through strategic_merge.h.
#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "app/util/patches/patch_schema.h"
#include "app/util/patches/patch_set.h"
#include "app/util/patches/strategic_merge.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

std::string_view SchemaFor(std::string_view target) {
  if (target == "corednsdeployment") return kDeploymentType;
  if (target == "kubeletconfiguration") return "";
  return kPodType;
}

// nlohmann's message without its "[json.exception.x.N] " prefix, in kkadm's words where the
// reason is a path that does not resolve.
std::string Reason(const json::exception& e) {
  switch (e.id) {
    case 401:  // array index out of range
    case 403:  // key not found
    case 404:  // unresolved reference token
      return "path not found";
    case 501:
      return "test failed";
    default: {
      std::string what = e.what();
      size_t end = what.find("] ");
      return end == std::string::npos ? what : what.substr(end + 2);
    }
  }
}

// Whether `op` (checked by LoadPatchSet: a map with string "op" and "path") adds or removes a
// member of a value that is neither a map nor a list, e.g. "/spec/x" when spec is a string.
// nlohmann's patch asserts there (and, built without assertions, does nothing); RFC 6902 and
// kubectl refuse such a path.
bool ChangesUnderAScalar(const json& object, const json& op) {
  const std::string& name = op.at("op").get_ref<const std::string&>();
  if (name != "add" && name != "remove" && name != "copy" && name != "move") return false;
  try {
    const json::json_pointer path(op.at("path").get<std::string>());
    if (path.empty()) return false;
    const json::json_pointer parent = path.parent_pointer();
    return object.contains(parent) && object.at(parent).is_primitive() &&
           !object.at(parent).is_null();
  } catch (const json::exception&) {
    return false;  // a malformed path: patch_inplace reports it
  }
}

// Applies the operations one by one so an error names the failing operation.
Result<json> ApplyJsonPatch(json object, const json& operations) {
  for (size_t i = 0; i < operations.size(); ++i) {
    const json& op = operations[i];
    if (ChangesUnderAScalar(object, op)) {
      return InvalidArgument(fmt::format("invalid JSON patch: operation {} ({} {}): path not found",
                                         i + 1, op.at("op").dump(),
                                         op.at("path").get<std::string>()));
    }
    try {
      object.patch_inplace(json::array({op}));
    } catch (const json::exception& e) {
      return InvalidArgument(fmt::format("invalid JSON patch: operation {} ({} {}): {}", i + 1,
                                         op.value("op", json()).dump(),
                                         op.value("path", std::string()), Reason(e)));
    }
  }
  return object;
}

Result<json> ApplyOne(const Patch& patch, std::string_view target, json object) {
  switch (patch.type) {
    case PatchType::kJson:
      return ApplyJsonPatch(std::move(object), patch.body);
    case PatchType::kMerge:
      object.merge_patch(patch.body);
      return object;
    case PatchType::kStrategic: {
      Result<json> merged = StrategicMergePatch(object, patch.body, SchemaFor(target));
      if (!merged) return merged.error().Wrap("invalid strategic merge patch");
      return merged;
    }
  }
  return Internal("unknown patch type");
}

}  // namespace

Result<PatchedObject> ApplyPatches(const PatchSet& set, std::string_view target, json object) {
  const std::vector<std::string>& known = KnownPatchTargets();
  if (std::find(known.begin(), known.end(), target) == known.end()) {
    return InvalidArgument(fmt::format("unknown patch target \"{}\"", target));
  }
  PatchedObject out{.object = std::move(object), .messages = {}};
  auto it = set.by_target.find(std::string(target));
  if (it == set.by_target.end()) return out;
  for (const Patch& patch : it->second) {
    Result<json> next = ApplyOne(patch, target, out.object);
    if (!next) {
      std::string where = patch.documents > 1
                              ? fmt::format("{}: document {}", patch.file, patch.document)
                              : patch.file;
      return next.error().Wrap(where);
    }
    out.object = std::move(*next);
    out.messages.push_back(fmt::format("[patches] Applied patch of type \"{}\" to target \"{}\"",
                                       PatchMediaType(patch.type), target));
  }
  return out;
}

}  // namespace kkadm::util::patches
