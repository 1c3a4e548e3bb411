// The binding context and environment of a hook: see binding_context.h.
#include "app/phases/hooks/binding_context.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "app/util/duration.h"
#include "app/util/secret_words.h"

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

template <typename T, typename Same>
void AddOnce(std::vector<T>& into, const T& item, Same same) {
  for (T& have : into) {
    if (same(have, item)) {
      have = item;
      return;
    }
  }
  into.push_back(item);
}

nlohmann::ordered_json OutputsJson(const PhaseOutputs& outputs) {
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const PhaseOutputs::File& file : outputs.files) {
    files.push_back({{"path", file.path},
                     {"sha256", file.sha256},
                     {"mode", fmt::format("{:04o}", file.mode & 07777)}});
  }
  nlohmann::ordered_json objects = nlohmann::ordered_json::array();
  for (const PhaseOutputs::Object& object : outputs.objects) {
    objects.push_back({{"verb", object.verb}, {"path", object.path}});
  }
  nlohmann::ordered_json members = nlohmann::ordered_json::array();
  for (const PhaseOutputs::EtcdMember& member : outputs.etcd_members) {
    members.push_back({{"id", member.id}, {"name", member.name}, {"peerURL", member.peer_url}});
  }
  return {{"files", files},
          {"directories", outputs.directories},
          {"unitsStarted", outputs.units_started},
          {"unitsEnabled", outputs.units_enabled},
          {"objects", objects},
          {"etcdMembers", members}};
}

}  // namespace

void PhaseOutputs::Merge(const PhaseOutputs& other) {
  const auto same_path = [](const auto& a, const auto& b) { return a.path == b.path; };
  const auto same = [](const std::string& a, const std::string& b) { return a == b; };
  for (const File& file : other.files) AddOnce(files, file, same_path);
  for (const std::string& dir : other.directories) AddOnce(directories, dir, same);
  for (const std::string& unit : other.units_started) AddOnce(units_started, unit, same);
  for (const std::string& unit : other.units_enabled) AddOnce(units_enabled, unit, same);
  for (const Object& object : other.objects) AddOnce(objects, object, same_path);
  for (const EtcdMember& member : other.etcd_members) {
    AddOnce(etcd_members, member, [](const auto& a, const auto& b) { return a.id == b.id; });
  }
}

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
  if (call.result == PhaseResult::kFailed) context["error"] = util::RedactSecretWords(call.error);
  if (call.result && call.outputs != nullptr) context["outputs"] = OutputsJson(*call.outputs);
  // An error may quote bytes that are not UTF-8: replaced, never thrown on.
  return context.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
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
