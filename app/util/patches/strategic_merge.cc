// Strategic merge patch: the merge, list-ordering and directive rules of apimachinery's
// strategicpatch package, re-expressed over nlohmann::json with kkadm's metadata table.
#include "app/util/patches/strategic_merge.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/util/patches/patch_schema.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

constexpr std::string_view kDirective = "$patch";
constexpr std::string_view kRetainKeys = "$retainKeys";
constexpr std::string_view kDeleteFromPrimitiveList = "$deleteFromPrimitiveList/";
constexpr std::string_view kSetElementOrder = "$setElementOrder/";

Result<json> MergeMap(json original, json patch, std::string_view type, const std::string& path);

std::string Brief(const json& value) {
  std::string text = value.dump();
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

Status PathError(const std::string& path, std::string_view message) {
  return InvalidArgument(path.empty() ? std::string(message)
                                      : fmt::format("at {}: {}", path, message));
}

std::string Child(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

// Go decodes every JSON number to float64, so numbers of any representation are one kind.
int KindOf(const json& v) {
  if (v.is_number()) return static_cast<int>(json::value_t::number_float);
  return static_cast<int>(v.type());
}

// Index of the element of `order` matching `item` (by merge key for maps), or -1.
int IndexOf(const json& order, const json& item, const std::string& key) {
  auto key_of = [&key](const json& v) { return v.is_object() ? v.value(key, json()) : json(); };
  for (size_t i = 0; i < order.size(); ++i) {
    if (key.empty() ? order[i] == item : key_of(order[i]) == key_of(item))
      return static_cast<int>(i);
  }
  return -1;
}

// Whether every element is of one kind and not a list; `is_map` tells whether they are maps.
Status ElementKind(const json& a, const json& b, const std::string& path, bool* is_map) {
  int kind = -1;
  for (const json* list : {&a, &b}) {
    for (const json& v : *list) {
      if (v.is_array()) return PathError(path, "lists of lists are not supported");
      if (kind >= 0 && KindOf(v) != kind)
        return PathError(path, "list element types are not identical");
      kind = KindOf(v);
    }
  }
  *is_map = kind == static_cast<int>(json::value_t::object);
  return Status::Ok();
}

Status RequireMergeKey(const json& list, const std::string& key, const std::string& path) {
  for (const json& v : list) {
    if (!v.is_object()) return PathError(path, fmt::format("expected a map, got {}", Brief(v)));
    if (!v.contains(key)) {
      return PathError(
          path, fmt::format("map {} does not contain declared merge key \"{}\"", Brief(v), key));
    }
  }
  return Status::Ok();
}

// Sorts `items` stably by their position in `order`; unmatched items move to the front.
void SortByOrder(json& items, const json& order, const std::string& key) {
  std::vector<std::pair<int, json>> ranked;
  for (json& v : items) ranked.emplace_back(IndexOf(order, v, key), std::move(v));
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& l, const auto& r) { return l.first < r.first; });
  items = json::array();
  for (auto& [rank, v] : ranked) items.push_back(std::move(v));
}

// apimachinery's normalizeElementOrder + mergeSortedSlice: patch items keep the patch's order,
// server-only items the server's; a server-only item goes before a patch item only when both are
// in the server list and it was earlier there (so brand-new patch items come first).
json NormalizeElementOrder(json patch_items, json server_only, const json& patch_order,
                           const json& server_order, const std::string& key) {
  SortByOrder(patch_items, patch_order, key);
  SortByOrder(server_only, server_order, key);
  json out = json::array();
  size_t i = 0, j = 0;
  while (i < server_only.size() && j < patch_items.size()) {
    int li = IndexOf(server_order, server_only[i], key);
    int ri = IndexOf(server_order, patch_items[j], key);
    if (li >= 0 && ri >= 0 && li < ri) {
      out.push_back(std::move(server_only[i++]));
    } else {
      out.push_back(std::move(patch_items[j++]));
    }
  }
  for (; i < server_only.size(); ++i) out.push_back(std::move(server_only[i]));
  for (; j < patch_items.size(); ++j) out.push_back(std::move(patch_items[j]));
  return out;
}

// Splits `merged` into the items present in `present_in` and the others.
void Partition(const json& merged, const json& present_in, const std::string& key, json* in,
               json* out) {
  *in = json::array();
  *out = json::array();
  for (const json& v : merged) (IndexOf(present_in, v, key) >= 0 ? *in : *out).push_back(v);
}

// Applies `$patch: delete|replace` elements: deletions leave `original`, a replace makes the
// patch's plain elements the whole list. Returns the patch's plain elements.
Result<json> ApplySpecialElements(json& original, const json& patch, const std::string& key,
                                  const std::string& path) {
  json plain = json::array();
  bool replace = false;
  for (const json& v : patch) {
    if (!v.contains(kDirective)) {
      plain.push_back(v);
      continue;
    }
    const json& directive = v[kDirective];
    if (directive == "delete") {
      if (!v.contains(key)) {
        return PathError(
            path, fmt::format("map {} does not contain declared merge key \"{}\"", Brief(v), key));
      }
      json kept = json::array();
      for (json& o : original) {
        if (!(o.is_object() && o.value(key, json()) == v[key])) kept.push_back(std::move(o));
      }
      original = std::move(kept);
    } else if (directive == "replace") {
      replace = true;
    } else if (directive == "merge") {
      return PathError(path, "merging lists cannot yet be specified in the patch");
    } else {
      return PathError(path,
                       fmt::format("unknown patch type {} in map {}", directive.dump(), Brief(v)));
    }
  }
  if (replace) {
    original = std::move(plain);
    return json::array();
  }
  return plain;
}

Result<json> MergeMapList(json original, const json& patch, const FieldPatchMeta& meta,
                          const std::string& path) {
  if (meta.merge_key.empty())
    return PathError(path, "cannot merge lists of maps without a merge key");
  Result<json> plain = ApplySpecialElements(original, patch, meta.merge_key, path);
  if (!plain) return plain.error();
  KKADM_RETURN_IF_ERROR(RequireMergeKey(*plain, meta.merge_key, path));
  KKADM_RETURN_IF_ERROR(RequireMergeKey(original, meta.merge_key, path));
  const json server_order = original;
  json merged = original;
  for (const json& v : *plain) {
    int at = IndexOf(merged, v, meta.merge_key);
    if (at < 0) {
      merged.push_back(v);
      continue;
    }
    std::string element_path =
        fmt::format("{}[{}={}]", path, meta.merge_key, v[meta.merge_key].dump());
    Result<json> m = MergeMap(std::move(merged[at]), v, meta.type, element_path);
    if (!m) return m.error();
    merged[at] = std::move(*m);
  }
  json patch_items, server_only;
  Partition(merged, *plain, meta.merge_key, &patch_items, &server_only);
  return NormalizeElementOrder(patch_items, server_only, *plain, server_order, meta.merge_key);
}

json MergeScalarList(const json& original, const json& patch, bool is_delete_list) {
  json merged = json::array();
  if (is_delete_list) {
    for (const json& v : original) {
      if (IndexOf(patch, v, "") < 0) merged.push_back(v);
    }
    return merged;
  }
  for (const json* list : {&original, &patch}) {
    for (const json& v : *list) {
      if (IndexOf(merged, v, "") < 0) merged.push_back(v);
    }
  }
  json patch_items, server_only;
  Partition(merged, patch, "", &patch_items, &server_only);
  return NormalizeElementOrder(patch_items, server_only, patch, original, "");
}

Result<json> MergeList(const json& original, const json& patch, const FieldPatchMeta& meta,
                       bool is_delete_list, const std::string& path) {
  if (original.empty() && patch.empty()) return original;
  bool is_map = false;
  KKADM_RETURN_IF_ERROR(ElementKind(original, patch, path, &is_map));
  if (!is_map) return MergeScalarList(original, patch, is_delete_list);
  return MergeMapList(original, patch, meta, path);
}

// `$retainKeys: [...]`: keys of `original` not listed are cleared; the patch may only set listed
// keys.
Status ApplyRetainKeys(json& original, json& patch, const std::string& path) {
  if (!patch.contains(kRetainKeys)) return Status::Ok();
  json keys = patch[kRetainKeys];
  patch.erase(std::string(kRetainKeys));
  if (!keys.is_array()) return PathError(path, "$retainKeys must be a list");
  for (const auto& [k, v] : patch.items()) {
    if (v.is_null() || k.rfind(kDeleteFromPrimitiveList, 0) == 0 ||
        k.rfind(kSetElementOrder, 0) == 0)
      continue;
    if (IndexOf(keys, k, "") < 0)
      return PathError(path, fmt::format("field \"{}\" is not in $retainKeys", k));
  }
  std::vector<std::string> drop;
  for (const auto& [k, v] : original.items()) {
    if (IndexOf(keys, k, "") < 0) drop.push_back(k);
  }
  for (const std::string& k : drop) original.erase(k);
  return Status::Ok();
}

// `$setElementOrder/<field>: [...]`: merges <field> and orders it by the given list first.
Status ApplySetElementOrder(json& original, json& patch, std::string_view type,
                            const std::string& path) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : patch.items()) {
    if (k.rfind(kSetElementOrder, 0) == 0) keys.push_back(k);
  }
  for (const std::string& k : keys) {
    json order = patch[k];
    patch.erase(k);
    std::string field = k.substr(kSetElementOrder.size());
    std::string field_path = Child(path, field);
    bool in_original = original.contains(field) && original[field].is_array();
    bool in_patch = patch.contains(field) && patch[field].is_array();
    if (!order.is_array()) return PathError(field_path, "$setElementOrder must be a list");
    if (!in_original && !in_patch) continue;
    FieldPatchMeta meta = LookupFieldPatchMeta(type, field);
    const json empty = json::array();
    const json& original_list = in_original ? original[field] : empty;
    json merged = in_patch ? patch[field] : original_list;
    if (in_original && in_patch) {
      Result<json> m = meta.merge ? MergeList(original_list, patch[field], meta, false, field_path)
                                  : Result<json>(patch[field]);
      if (!m) return m.error();
      merged = std::move(*m);
    }
    bool is_map = false;
    KKADM_RETURN_IF_ERROR(ElementKind(merged, order, field_path, &is_map));
    std::string key = is_map ? meta.merge_key : "";
    json in, out;
    Partition(merged, order, key, &in, &out);
    original[field] = NormalizeElementOrder(in, out, order, original_list, key);
    patch.erase(field);
  }
  return Status::Ok();
}

Status MergeField(json& original, const std::string& key, const json& value, bool is_delete_list,
                  std::string_view type, const std::string& path) {
  json& current = original[key];
  if (KindOf(current) != KindOf(value)) {
    current = value;
    return Status::Ok();
  }
  FieldPatchMeta meta = LookupFieldPatchMeta(type, key);
  Result<json> merged = value;
  if (current.is_object() && !meta.replace) {
    merged = MergeMap(std::move(current), value, meta.type, Child(path, key));
  } else if (current.is_array() && meta.merge) {
    merged = MergeList(current, value, meta, is_delete_list, Child(path, key));
  } else if (is_delete_list) {
    return PathError(Child(path, key),
                     "$deleteFromPrimitiveList needs a list with the merge strategy");
  }
  if (!merged) return merged.error();
  current = std::move(*merged);
  return Status::Ok();
}

Result<json> MergeMap(json original, json patch, std::string_view type, const std::string& path) {
  if (patch.contains(kDirective)) {
    const json& directive = patch[kDirective];
    if (directive == "replace") {
      patch.erase(std::string(kDirective));
      return patch;
    }
    if (directive == "delete") return json::object();
    return PathError(
        path, fmt::format("unknown patch type {} in map {}", directive.dump(), Brief(patch)));
  }
  if (original.is_null()) original = json::object();
  KKADM_RETURN_IF_ERROR(ApplyRetainKeys(original, patch, path));
  KKADM_RETURN_IF_ERROR(ApplySetElementOrder(original, patch, type, path));
  for (const auto& [raw_key, value] : patch.items()) {
    std::string key = raw_key;
    bool is_delete_list = raw_key.rfind(kDeleteFromPrimitiveList, 0) == 0;
    if (is_delete_list) key = raw_key.substr(kDeleteFromPrimitiveList.size());
    if (value.is_null()) {
      original.erase(key);
    } else if (!original.contains(key)) {
      // Like apimachinery: a field the original lacks takes the patch value as it is.
      if (!is_delete_list) original[key] = value;
    } else {
      KKADM_RETURN_IF_ERROR(MergeField(original, key, value, is_delete_list, type, path));
    }
  }
  return original;
}

}  // namespace

Result<json> StrategicMergePatch(const json& original, const json& patch,
                                 std::string_view root_type) {
  if (!patch.is_object())
    return InvalidArgument("a strategic merge patch must be a map, got " + Brief(patch));
  if (!original.is_object()) return InvalidArgument("the object to patch is not a map");
  return MergeMap(original, patch, root_type, "");
}

}  // namespace kkadm::util::patches
