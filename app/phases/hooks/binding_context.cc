// The binding context and environment of a hook: see binding_context.h.
#include "app/phases/hooks/binding_context.h"

#include <nlohmann/json.hpp>

#include "app/util/duration.h"

namespace kkadm::phases::hooks {
namespace {

std::string_view ResultName(PhaseResult result) {
  switch (result) {
    case PhaseResult::kSucceeded:
      return "Succeeded";
    case PhaseResult::kFailed:
      return "Failed";
    case PhaseResult::kSkipped:
      return "Skipped";
  }
  return "";
}

bool PassedOn(const std::string& name) {
  static const char* const kNames[] = {"PATH",   "HOME", "LANG", "TZ",
                                       "TMPDIR", "TERM", "USER", "LOGNAME"};
  for (const char* kept : kNames) {
    if (name == kept) return true;
  }
  return name.rfind("LC_", 0) == 0;
}

}  // namespace

std::string BindingContextJson(const RunFacts& facts, const HookCall& call) {
  nlohmann::ordered_json paths = nlohmann::ordered_json::object();
  for (const auto& [name, path] : facts.paths) paths[name] = path;
  nlohmann::ordered_json context = {
      {"apiVersion", kBindingContextApiVersion},
      {"kind", kBindingContextKind},
      {"command", facts.command},
      {"phase", call.phase},
      {"stage", StageName(call.stage)},
      {"hook",
       {{"name", call.hook.name},
        {"path", call.hook.path},
        {"timeout", util::FormatDuration(call.hook.timeout)},
        {"fatal", call.hook.fatal}}},
      {"rootfs", facts.rootfs},
      {"dryRun", facts.dry_run},
      {"configFile", facts.config_file},
      {"hooksDir", facts.hooks_dir},
      {"paths", paths},
  };
  if (call.result) context["result"] = ResultName(*call.result);
  return context.dump() + "\n";
}

std::vector<std::string> HookEnvironment(const RunFacts& facts, const HookCall& call) {
  std::vector<std::string> env;
  bool has_path = false;
  for (const util::EnvVar& var : facts.environment) {
    if (!PassedOn(var.name)) continue;
    has_path = has_path || var.name == "PATH";
    env.push_back(var.name + "=" + var.value);
  }
  if (!has_path) env.push_back("PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
  env.push_back("KKADM_COMMAND=" + facts.command);
  env.push_back("KKADM_PHASE=" + std::string(call.phase));
  env.push_back("KKADM_STAGE=" + std::string(StageName(call.stage)));
  env.push_back("KKADM_HOOK=" + call.hook.name);
  env.push_back("KKADM_ROOTFS=" + facts.rootfs);
  env.push_back(std::string("KKADM_DRY_RUN=") + (facts.dry_run ? "true" : "false"));
  return env;
}

}  // namespace kkadm::phases::hooks
