// The CLI11 binding of a Runner: `<cmd> phase <name>...` subcommands, `--skip-phases`, and the
// phase list in the command's help (kubeadm's BindToCommand).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "app/util/status.h"
#include "app/workflow/runner.h"

namespace kkadm::workflow {

// The flags of one workflow command, each registered once with the function that adds it to a
// CLI11 app, so the same storage is bound on the main command and on the phase subcommands that
// inherit it (a phase's inherit_flags name entries of this set).
class FlagSet {
 public:
  using Adder = std::function<CLI::Option*(CLI::App&)>;
  enum class Scope {
    kCommandAndPhases,  // on the main command; phases get it through inherit_flags
    kPhasesOnly,        // only on phase subcommands that inherit it (kubeadm's "additional flags")
  };

  // A second registration of a name is ignored and makes BindToCommand fail (a bug in the command).
  void Register(std::string name, Adder adder, Scope scope = Scope::kCommandAndPhases);
  // Adds every kCommandAndPhases flag to app.
  void AddAll(CLI::App& app) const;
  // Adds the named flag to app; nullptr when the name was never registered.
  CLI::Option* Add(CLI::App& app, const std::string& name) const;
  bool Has(const std::string& name) const;
  const std::string& duplicate() const { return duplicate_; }

 private:
  struct Flag {
    std::string name;
    Adder adder;
    Scope scope;
  };
  std::vector<Flag> flags_;
  std::string duplicate_;  // first name registered twice, if any
};

struct BindOptions {
  // The command's usage as shown in the phase list header, e.g. "join [api-server-endpoint]";
  // empty means the command's name.
  std::string use;
  // Receives the outcome of every run started from the command line (the whole workflow or one
  // phase) with runner.failed_phase(), so the command can choose its exit code (2 for preflight).
  std::function<void(const Status&, const std::string& failed_phase)> on_done;
  // Optional, main command only: called after data initialisation with the --skip-phases value;
  // returns the skip list to use (kubeadm reads skipPhases from the config file when the flag is
  // empty, and init maps addon skips onto the config). An error stops the run.
  std::function<Result<std::vector<std::string>>(const std::vector<std::string>&)>
      resolve_skip_phases;
  // FlagSet names every runnable phase subcommand gets besides its inherit_flags, e.g. join's
  // positional api-server-endpoint.
  std::vector<std::string> every_phase_flags;
  // Builds the phase subcommands at once rather than when `phase` is parsed: for help that lists
  // every command without parsing into them (--help-all).
  bool phase_commands_now = false;
};

// Typical use in a command (the command object owns options_, data_, flags_ and runner_):
//   flags_.Register("cert-dir", [this](CLI::App& a) { return a.add_option("--cert-dir", ...); });
//   runner_.SetDataInitializer([this] { return MakeInitData(options_, host_, data_); });
//   BindOptions bind;
//   bind.on_done = [&context](const Status& s, const std::string& failed_phase) {
//     context.status = s;
//     if (!s.ok() && failed_phase == "preflight") context.exit_code = kExitPreflight;
//   };
//   KKADM_RETURN_IF_ERROR(BindToCommand(*init, runner_, flags_, std::move(bind)));
//
// Binds runner to cmd:
// - the FlagSet's flags and `--skip-phases` (comma list) on cmd, hidden while a `phase`
//   subcommand is parsed so that phase subcommands see only what they inherit;
// - `phase` with one nested subcommand per non-hidden phase (aliases kept), built when `phase` is
//   parsed (a command run without it never pays for them); a phase with children
//   also gets an `all` subcommand running all of them; leaves and `all` run the runner with that
//   path as filter; a parent invoked alone prints its help (CLI::CallForHelp);
// - local flags bound to their targets, inherited flags added from flags;
// - fallthrough on cmd and every generated subcommand, so the root's global flags (-v, --rootfs)
//   parse anywhere;
// - cmd's callback runs the whole workflow with the skip list; runner.Help() becomes cmd's footer.
// runner, flags (and the storage the flags are bound to) must outlive cmd. Callbacks never throw
// except CLI::CallForHelp, and CLI::ConstructionError when CLI11 rejects a phase's name while
// `phase` is parsed. Returns Internal (and binds nothing usable) when the tree is invalid, a phase
// inherits an unknown flag or local flags clash: all bugs in the command's definition.
[[nodiscard]] Status BindToCommand(CLI::App& cmd, Runner& runner, const FlagSet& flags,
                                   BindOptions options);

}  // namespace kkadm::workflow
