// Patch file naming and loading: kubeadm's parseFilename / createPatchSet rules.
#include "app/util/patches/patch_set.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/util/yaml/yaml.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

constexpr std::string_view kJsonExt = ".json";
constexpr std::string_view kYamlExt = ".yaml";

bool EndsWith(std::string_view s, std::string_view end) {
  return s.size() > end.size() && s.substr(s.size() - end.size()) == end;
}

std::string BaseName(std::string_view name) {
  size_t slash = name.rfind('/');
  return std::string(slash == std::string_view::npos ? name : name.substr(slash + 1));
}

std::vector<std::string_view> Components(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t slash; (slash = path.find('/', start)) != std::string_view::npos; start = slash + 1) {
    out.push_back(path.substr(start, slash - start));
  }
  out.push_back(path.substr(start));
  return out;
}

Result<PatchType> ParseType(std::string_view type) {
  if (type == "json") return PatchType::kJson;
  if (type == "merge") return PatchType::kMerge;
  if (type == "strategic") return PatchType::kStrategic;
  if (type.empty())
    return InvalidArgument(
        "missing patch type after \"+\"; valid types are: json, merge, strategic");
  return InvalidArgument(
      fmt::format("unknown patch type \"{}\"; valid types are: json, merge, strategic", type));
}

Status CheckJsonPatch(const json& doc) {
  static const std::vector<std::string> kOps = {"add", "remove", "replace", "move", "copy", "test"};
  if (!doc.is_array()) return InvalidArgument("a JSON patch must be a list of operations");
  for (size_t i = 0; i < doc.size(); ++i) {
    const json& op = doc[i];
    std::string where = fmt::format("invalid JSON patch: operation {}", i + 1);
    if (!op.is_object()) return InvalidArgument(where + ": not a map");
    if (!op.contains("op") || !op["op"].is_string())
      return InvalidArgument(where + ": missing \"op\"");
    if (std::find(kOps.begin(), kOps.end(), op["op"].get<std::string>()) == kOps.end()) {
      return InvalidArgument(fmt::format("{}: unknown op {}", where, op["op"].dump()));
    }
    if (!op.contains("path") || !op["path"].is_string())
      return InvalidArgument(where + ": missing \"path\"");
  }
  return Status::Ok();
}

Status CheckDocument(PatchType type, const json& doc) {
  if (type == PatchType::kJson) return CheckJsonPatch(doc);
  if (!doc.is_object()) {
    return InvalidArgument(fmt::format("a {} patch must be a map, got {}",
                                       type == PatchType::kMerge ? "merge" : "strategic merge",
                                       doc.dump()));
  }
  return Status::Ok();
}

// Adds the patches of one non-empty file to `set`.
Status AddFile(const PatchFile& file, const PatchFileName& parsed, PatchSet& set) {
  Result<std::vector<json>> docs = yaml::ReadDocuments(file.content);
  if (!docs) return docs.error().Wrap("invalid YAML");
  int count = static_cast<int>(docs->size());
  for (int i = 0; i < count; ++i) {
    Status ok = CheckDocument(parsed.type, (*docs)[i]);
    if (!ok.ok()) return count > 1 ? ok.Wrap(fmt::format("document {}", i + 1)) : ok;
    set.by_target[parsed.target].push_back(Patch{.file = file.name,
                                                 .document = i + 1,
                                                 .documents = count,
                                                 .type = parsed.type,
                                                 .body = std::move((*docs)[i])});
  }
  set.files.push_back(BaseName(file.name));
  return Status::Ok();
}

}  // namespace

const std::vector<std::string>& KnownPatchTargets() {
  static const std::vector<std::string> kTargets = {
      "etcd",           "kube-apiserver",       "kube-controller-manager",
      "kube-scheduler", "kubeletconfiguration", "corednsdeployment"};
  return kTargets;
}

Result<PatchFileName> ParsePatchFileName(std::string_view base_name) {
  if (!EndsWith(base_name, kJsonExt) && !EndsWith(base_name, kYamlExt)) {
    return InvalidArgument("unsupported file extension; patch files end in .json or .yaml");
  }
  PatchFileName out;
  for (const std::string& target : KnownPatchTargets()) {
    if (base_name.substr(0, target.size()) == target) out.target = target;
  }
  if (out.target.empty()) {
    std::string_view word = base_name.substr(0, base_name.find_first_of(".+"));
    return InvalidArgument(fmt::format("unknown patch target \"{}\"; valid targets are: {}", word,
                                       fmt::join(KnownPatchTargets(), ", ")));
  }
  std::string_view rest = base_name.substr(out.target.size());
  size_t end = rest.find_first_of(".+");
  out.suffix = std::string(rest.substr(0, end));
  if (rest[end] == '+') {
    std::string_view type = rest.substr(end + 1);
    Result<PatchType> parsed = ParseType(type.substr(0, type.find('.')));
    if (!parsed) return parsed.error();
    out.type = *parsed;
  }
  return out;
}

Result<PatchSet> LoadPatchSet(const std::vector<PatchFile>& files, LoadOptions options) {
  std::vector<const PatchFile*> sorted;
  for (const PatchFile& f : files) sorted.push_back(&f);
  std::stable_sort(sorted.begin(), sorted.end(), [](const PatchFile* a, const PatchFile* b) {
    return Components(a->name) < Components(b->name);
  });
  PatchSet set;
  for (const PatchFile* file : sorted) {
    std::string base = BaseName(file->name);
    if (options.skip_unsupported_extensions && !EndsWith(base, kJsonExt) &&
        !EndsWith(base, kYamlExt)) {
      set.notes.push_back(fmt::format(
          "[patches] Ignoring file \"{}\": the file extension must be one of [json yaml]", base));
      set.ignored.push_back(base);
      continue;
    }
    Result<PatchFileName> parsed = ParsePatchFileName(base);
    if (!parsed) return parsed.error().Wrap(file->name);
    if (file->content.empty()) {
      set.notes.push_back(fmt::format("[patches] Ignoring empty file: \"{}\"", base));
      set.ignored.push_back(base);
      continue;
    }
    KKADM_RETURN_IF_ERROR(AddFile(*file, *parsed, set).Wrap(file->name));
    spdlog::debug("patches: {} holds patches of type {} for target {}", file->name,
                  PatchMediaType(parsed->type), parsed->target);
  }
  return set;
}

std::vector<std::string> DescribePatchSet(const PatchSet& set, std::string_view path) {
  std::vector<std::string> lines = {
      fmt::format("[patches] Reading patches from path \"{}\"", path)};
  lines.insert(lines.end(), set.notes.begin(), set.notes.end());
  if (!set.files.empty()) {
    lines.push_back(
        fmt::format("[patches] Found the following patch files: [{}]", fmt::join(set.files, " ")));
  }
  if (!set.ignored.empty()) {
    lines.push_back(
        fmt::format("[patches] Ignored the following files: [{}]", fmt::join(set.ignored, " ")));
  }
  return lines;
}

}  // namespace kkadm::util::patches
