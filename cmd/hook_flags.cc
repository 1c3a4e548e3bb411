// The hooks' flags and their observer: see hook_flags.h.
#include "cmd/hook_flags.h"

#include <CLI/CLI.hpp>

#include "app/util/environment.h"
#include "cmd/typed_flags.h"

namespace kkadm::cmd {

void RegisterHookFlags(workflow::FlagSet& flags, HookOptions& options) {
  flags.Register("hooks-dir", [&options](CLI::App& app) {
    return app
        .add_option("--hooks-dir", options.hooks_dir,
                    "The directory of the hooks run before and after phases (a path of the node, "
                    "under --rootfs).")
        ->capture_default_str();
  });
  AddBoolFlag(flags, "skip-hooks", options.skip_hooks,
              "Run no hooks of the hooks directory before or after phases.");
}

void AppendHookFlagNames(std::vector<std::string>& names) {
  names.push_back("hooks-dir");
  names.push_back("skip-hooks");
}

phases::hooks::RunFacts HookFacts(std::string command, const std::string& rootfs, bool dry_run,
                                  std::string config_file,
                                  std::vector<std::pair<std::string, std::string>> paths) {
  phases::hooks::RunFacts facts;
  facts.command = std::move(command);
  facts.rootfs = rootfs.empty() ? "/" : rootfs;
  facts.dry_run = dry_run;
  facts.config_file = std::move(config_file);
  facts.paths = std::move(paths);
  return facts;
}

Status CommandHooks::Attach(const HookOptions& options, phases::hooks::RunFacts facts,
                            const util::FileSystem& fs, util::Printer& out,
                            workflow::ObserverChain& chain) {
  if (options.hooks_dir.empty() || options.hooks_dir.front() != '/') {
    return InvalidArgument("--hooks-dir \"" + options.hooks_dir +
                           "\": must be an absolute path (of the node, under --rootfs)");
  }
  if (options.skip_hooks) return Status();
  facts.hooks_dir = options.hooks_dir;
  facts.environment = util::ProcessEnvironment();
  observer_ = std::make_unique<phases::hooks::HookObserver>(fs, runner_, out, std::move(facts));
  chain.Add(*observer_);
  return Status();
}

}  // namespace kkadm::cmd
