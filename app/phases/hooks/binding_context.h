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

// What a phase made on the node and beyond, as the node's journal recorded it while the phase
// ran (a phase with sub-phases: theirs). Paths are node paths; nothing here is a secret.
struct PhaseOutputs {
  struct File {
    std::string path;
    std::string sha256;  // of the content the phase left
    unsigned mode = 0;
  };
  struct Object {
    std::string verb;  // "create", "update", "patch", "delete"
    std::string path;  // "/api/v1/namespaces/kube-system/configmaps/kubeadm-config"
  };
  struct EtcdMember {
    std::string id, name, peer_url;
  };
  std::vector<File> files;
  std::vector<std::string> directories;  // created
  std::vector<std::string> units_started, units_enabled;
  std::vector<Object> objects;
  std::vector<EtcdMember> etcd_members;

  // Adds what `other` holds that this does not (a file written again: its later content).
  void Merge(const PhaseOutputs& other);
};

// One hook about to run.
struct HookCall {
  std::string_view phase;  // the phase's path; "" for the hooks of the whole command
  Stage stage;
  const Hook& hook;
  std::optional<PhaseResult> result;      // post hooks: how the phase (or command) ended
  std::string_view error = {};            // post hooks of a failed phase: its error, redacted
  const PhaseOutputs* outputs = nullptr;  // post hooks: what the phase made; null: not known
};

// The binding context, one JSON object ending in a newline.
std::string BindingContextJson(const RunFacts& facts, const HookCall& call);

// The hook's environment: PATH (a default when kkadm has none), HOME, LANG, LC_*, TZ, TMPDIR,
// TERM, USER and LOGNAME from kkadm's, and KKADM_COMMAND, KKADM_PHASE, KKADM_STAGE, KKADM_HOOK,
// KKADM_ROOTFS, KKADM_DRY_RUN ("true"/"false"). Nothing else of kkadm's: it may hold secrets.
std::vector<std::string> HookEnvironment(const RunFacts& facts, const HookCall& call);

}  // namespace kkadm::phases::hooks
