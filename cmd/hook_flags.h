// The hooks of init, join and reset (docs/hooks.md): their flags, and what a command keeps to run
// them (the process runner and the observer it adds to its chain).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/phases/hooks/hook_observer.h"
#include "app/phases/journal/journal.h"
#include "app/util/process_real.h"
#include "app/workflow/cli.h"
#include "app/workflow/observer_chain.h"

namespace kkadm::cmd {

struct HookOptions {
  std::string hooks_dir = phases::hooks::kDefaultHooksDir;  // a node path, under --rootfs
  bool skip_hooks = false;
};

// --hooks-dir and --skip-hooks, on the command and its phase subcommands.
void RegisterHookFlags(workflow::FlagSet& flags, HookOptions& options);
// Appends their names: every phase subcommand takes them (workflow::BindOptions).
void AppendHookFlagNames(std::vector<std::string>& names);

// What every hook of a command's run is told (--rootfs "" is "/"); `paths` are node paths by name.
phases::hooks::RunFacts HookFacts(std::string command, const std::string& rootfs, bool dry_run,
                                  std::string config_file,
                                  std::vector<std::pair<std::string, std::string>> paths);

// What each phase made, from the node's journal of `command`'s run: the files it wrote (as the
// phase still holds them), the directories it created, the units, API objects and etcd members
// its attempts recorded. `journal` must outlive the run.
phases::hooks::OutputsSource JournalOutputs(const phases::journal::Journal& journal,
                                            std::string command);

class CommandHooks {
 public:
  // Adds the hook observer to `chain` (last: innermost), unless --skip-hooks. `facts` is filled
  // with the hooks directory and kkadm's environment here; `reporting` says where the hooks' runs
  // are reported and what post hooks are told of a phase's outputs. `fs` and `out` must outlive
  // the run. InvalidArgument when --hooks-dir is not an absolute path.
  Status Attach(const HookOptions& options, phases::hooks::RunFacts facts,
                const util::FileSystem& fs, util::Printer& out, workflow::ObserverChain& chain,
                phases::hooks::HookReporting reporting = {});

 private:
  util::RealProcessRunner runner_;
  std::unique_ptr<phases::hooks::HookObserver> observer_;
};

}  // namespace kkadm::cmd
