// The one place a command turns an optional --config file plus its flags into a defaulted,
// validated configuration (kubeadm's LoadOrDefault*Configuration + ValidateMixedArguments).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/config/defaults.h"
#include "app/config/init_flags.h"
#include "app/config/join_flags.h"
#include "app/config/load.h"
#include "app/config/release_version.h"
#include "app/config/types.h"
#include "app/util/machine.h"
#include "app/util/status.h"

namespace kkadm::config {

struct LoadedInit {
  InitConfiguration cfg;
  std::vector<std::string> warnings;  // unknown fields/kinds, ignored flags, unknown feature gates
};

struct LoadedJoin {
  JoinConfiguration cfg;
  std::vector<std::string> warnings;
};

struct LoadedReset {
  ResetConfiguration cfg;
  std::vector<std::string> warnings;
};

// With a file, only the flags kubeadm allows beside --config may be set (node-name,
// ignore-preflight-errors, dry-run, skip-phases); any other gives InvalidArgument
// "can not mix '--config' with arguments [a b]". Flags override the file's values; defaults fill
// the rest; the result is validated. Loading is lenient: unknown fields and kinds are warnings.
// A kubernetesVersion label (or none: "stable-1") is looked up in `versions` before defaulting,
// as kubeadm's dynamic defaults do (ResolveVersionLabel: warnings and fallback on failure).
// An unset criSocket is detected with `detect_cri` when given (kubeadm's DetectCRISocket: its
// "found multiple CRI endpoints" error fails here, before anything is written), else containerd's.
Result<LoadedInit> MakeInitConfiguration(const std::optional<ConfigSource>& file,
                                         const InitFlags& flags, const util::Machine& machine,
                                         const ReleaseVersionSource& versions,
                                         const CriSocketDetector& detect_cri = {});
Result<LoadedJoin> MakeJoinConfiguration(const std::optional<ConfigSource>& file,
                                         const JoinFlags& flags, const util::Machine& machine,
                                         const CriSocketDetector& detect_cri = {});
Result<LoadedReset> MakeResetConfiguration(const std::optional<ConfigSource>& file,
                                           const ResetFlags& flags,
                                           const CriSocketDetector& detect_cri = {});

// A flag the user gave replaces the configuration's value (kubeadm's flag-over-file rule).
template <class T>
void OverrideIfSet(T& field, const std::optional<T>& flag) {
  if (flag) field = *flag;
}

// Internal to make_*.cc, exposed for tests.
// The error for --config mixed with config-bound flags, or OK. `set_flags` are sorted names.
Status CheckMixedArguments(bool has_config, const std::vector<std::string>& set_flags);
// "A=true,B=false" to a map; InvalidArgument naming --feature-gates on bad syntax.
Result<std::map<std::string, bool>> ParseFeatureGates(const std::string& text);
// Union of the file's and the flag's ignore-preflight-errors: lower-cased, sorted, unique.
std::vector<std::string> MergePreflightErrors(
    const std::vector<std::string>& file_values,
    const std::optional<std::vector<std::string>>& flag_values);

// The flags `kkadm init` and `kkadm join` bind alike: the node's name and CRI socket, --patches,
// --dry-run, --skip-phases, and --ignore-preflight-errors merged with the file's.
template <class Flags, class Config>
void ApplyNodeRunFlags(const Flags& flags, Config& cfg) {
  OverrideIfSet(cfg.node_registration.name, flags.node_name);
  OverrideIfSet(cfg.node_registration.cri_socket, flags.cri_socket);
  OverrideIfSet(cfg.patches_directory, flags.patches);
  OverrideIfSet(cfg.dry_run, flags.dry_run);
  OverrideIfSet(cfg.skip_phases, flags.skip_phases);
  cfg.node_registration.ignore_preflight_errors = MergePreflightErrors(
      cfg.node_registration.ignore_preflight_errors, flags.ignore_preflight_errors);
}

}  // namespace kkadm::config
