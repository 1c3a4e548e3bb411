// The hooks of a command: see hook_list.h.
#include "app/phases/hooks/hook_list.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/util/ascii.h"
#include "app/util/duration.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases::hooks {
namespace {

// Applies the settings of the sidecar file at `path` (which exists) to `hook`.
Status ReadHookSettings(const util::FileSystem& fs, const std::string& path, Hook& hook) {
  Result<std::string> text = fs.ReadFile(path);
  if (!text) return text.error().Wrap("reading the settings of hook " + hook.name);
  Result<nlohmann::json> doc = util::yaml::Read(*text, {.source = path});
  if (!doc) return InvalidArgument(doc.error().message());
  if (doc->is_null()) return Status();
  if (!doc->is_object()) return InvalidArgument(path + ": the hook's settings must be a mapping");
  for (const auto& [key, value] : doc->items()) {
    if (key == "timeout" && value.is_string()) {
      Result<std::chrono::milliseconds> timeout = util::ParseDuration(value.get<std::string>());
      if (!timeout) return InvalidArgument(path + ": timeout: " + timeout.error().message());
      if (timeout->count() <= 0) return InvalidArgument(path + ": timeout: must be over 0");
      hook.timeout = *timeout;
    } else if (key == "fatal" && value.is_boolean()) {
      hook.fatal = value.get<bool>();
    } else if (key == "timeout" || key == "fatal") {
      return InvalidArgument(fmt::format(
          "{}: {}: {}", path, key,
          key == "fatal" ? "must be true or false" : "must be a duration such as \"30s\""));
    } else {
      return InvalidArgument(
          fmt::format("{}: unknown field \"{}\" (known: timeout, fatal)", path, key));
    }
  }
  return Status();
}

}  // namespace

std::string_view StageName(Stage stage) { return stage == Stage::kPre ? "pre" : "post"; }

bool IsHookName(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return util::IsAsciiAlnum(c) || c == '_' || c == '-';
  });
}

std::string HookDirectory(std::string_view hooks_dir, std::string_view command, Stage stage,
                          std::string_view phase) {
  std::string dir = fmt::format("{}/{}/{}", hooks_dir, command, StageName(stage));
  if (!phase.empty()) dir += fmt::format("-{}", phase);
  return dir + ".d";
}

Result<std::vector<Hook>> FindHooks(const util::FileSystem& fs, const std::string& dir) {
  Result<std::vector<std::string>> names = fs.ListDir(dir);
  if (!names) {
    if (names.error().code() == StatusCode::kNotFound) return std::vector<Hook>{};
    return names.error().Wrap("listing hooks");
  }
  std::vector<std::string> sorted = *names;
  std::sort(sorted.begin(), sorted.end());  // bytes, whatever the locale
  std::vector<Hook> hooks;
  for (const std::string& name : sorted) {
    if (!IsHookName(name)) continue;
    Hook hook{.name = name, .path = dir + "/" + name};
    Result<util::FileInfo> info = fs.Stat(hook.path);
    if (!info) return info.error().Wrap("hook " + hook.path);
    if (info->type != util::FileType::kRegular) {
      if (info->type != util::FileType::kDirectory) {
        spdlog::warn("[hooks] {} is not a regular file: not run", hook.path);
      }
      continue;
    }
    if ((info->mode & 0111) == 0) continue;  // run-parts: not executable, not a hook
    const std::string sidecar = hook.path + ".yaml";
    if (fs.Exists(sidecar)) KKADM_RETURN_IF_ERROR(ReadHookSettings(fs, sidecar, hook));
    hooks.push_back(std::move(hook));
  }
  return hooks;
}

}  // namespace kkadm::phases::hooks
