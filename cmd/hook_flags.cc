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

phases::hooks::OutputsSource JournalOutputs(const phases::journal::Journal& journal,
                                            std::string command) {
  return [&journal, command = std::move(command)](std::string_view phase) {
    phases::hooks::PhaseOutputs made;
    if (journal.current_phase() == phase) {
      for (const phases::journal::FileOutput& file : journal.current_files()) {
        made.files.push_back({file.path, file.sha256, file.mode});
      }
    }
    const phases::journal::PhaseRecord* record = journal.state().Find(command, phase);
    if (record == nullptr) return made;
    made.directories = record->attempt_dirs;
    made.units_started = record->units_started;
    made.units_enabled = record->units_enabled;
    for (const phases::journal::ObjectChange& object : record->objects) {
      made.objects.push_back({object.verb, object.path});
    }
    for (const phases::journal::EtcdMemberAdded& member : record->etcd_members) {
      made.etcd_members.push_back({member.id, member.name, member.peer_url});
    }
    return made;
  };
}

Status CommandHooks::Attach(const HookOptions& options, phases::hooks::RunFacts facts,
                            const util::FileSystem& fs, util::Printer& out,
                            workflow::ObserverChain& chain,
                            phases::hooks::HookReporting reporting) {
  if (options.hooks_dir.empty() || options.hooks_dir.front() != '/') {
    return InvalidArgument("--hooks-dir \"" + options.hooks_dir +
                           "\": must be an absolute path (of the node, under --rootfs)");
  }
  if (options.skip_hooks) return Status();
  facts.hooks_dir = options.hooks_dir;
  facts.environment = util::ProcessEnvironment();
  observer_ = std::make_unique<phases::hooks::HookObserver>(fs, runner_, out, std::move(facts),
                                                            std::move(reporting));
  chain.Add(*observer_);
  return Status();
}

}  // namespace kkadm::cmd
