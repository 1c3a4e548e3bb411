// What a hook is told: the binding context (JSON on its stdin and in a file) and its environment.
// Neither holds a secret: no token, key or certificate key (docs/hooks.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/phases/hooks/hook_list.h"
#include "app/util/pod_spec.h"

namespace kkadm::phases::hooks {

inline constexpr char kBindingContextApiVersion[] = "hooks.kkadm.io/v1alpha1";
inline constexpr char kBindingContextKind[] = "HookBindingContext";
// The environment variable naming the file that holds the binding context.
inline constexpr char kBindingContextEnv[] = "KKADM_BINDING_CONTEXT";

// What every hook of one run of a command is told.
struct RunFacts {
  std::string command;  // "init", "join", "reset"
  std::string rootfs = "/";
  bool dry_run = false;
  std::string config_file;  // --config as given; "" when none
  std::string hooks_dir = kDefaultHooksDir;
  // Node paths the command works with, by name ("adminKubeconfig" -> "/etc/kubernetes/admin.conf").
  std::vector<std::pair<std::string, std::string>> paths;
  // kkadm's own environment: a hook gets only the variables of kHookEnvironment from it.
  std::vector<util::EnvVar> environment;
};

enum class PhaseResult { kSucceeded, kFailed, kSkipped };

// One hook about to run.
struct HookCall {
  std::string_view phase;  // the phase's path; "" for the hooks of the whole command
  Stage stage;
  const Hook& hook;
  std::optional<PhaseResult> result;  // post hooks: how the phase (or command) ended
};

// The binding context, one JSON object ending in a newline.
std::string BindingContextJson(const RunFacts& facts, const HookCall& call);

// The hook's environment: PATH (a default when kkadm has none), HOME, LANG, LC_*, TZ, TMPDIR,
// TERM, USER and LOGNAME from kkadm's, and KKADM_COMMAND, KKADM_PHASE, KKADM_STAGE, KKADM_HOOK,
// KKADM_ROOTFS, KKADM_DRY_RUN ("true"/"false"). Nothing else of kkadm's: it may hold secrets.
std::vector<std::string> HookEnvironment(const RunFacts& facts, const HookCall& call);

}  // namespace kkadm::phases::hooks
