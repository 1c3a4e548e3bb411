// BindToCommand: turns a Runner's phase tree into CLI11 subcommands and flags.
#include "app/workflow/cli.h"

#include <algorithm>
#include <memory>
#include <set>
#include <utility>
#include <variant>

namespace kkadm::workflow {

void FlagSet::Register(std::string name, Adder adder, Scope scope) {
  if (Has(name)) {
    if (duplicate_.empty()) duplicate_ = name;
    return;
  }
  flags_.push_back(Flag{std::move(name), std::move(adder), scope});
}

void FlagSet::AddAll(CLI::App& app) const {
  for (const auto& flag : flags_) {
    if (flag.scope == Scope::kCommandAndPhases) flag.adder(app);
  }
}

CLI::Option* FlagSet::Add(CLI::App& app, const std::string& name) const {
  for (const auto& flag : flags_) {
    if (flag.name == name) return flag.adder(app);
  }
  return nullptr;
}

bool FlagSet::Has(const std::string& name) const {
  for (const auto& flag : flags_) {
    if (flag.name == name) return true;
  }
  return false;
}

namespace {

using Target = decltype(LocalFlag::target);
// `all` runs several phases that may each have a local flag of the same name: the option is bound
// to the first target, and when it was given its value is copied into the others after parsing.
struct Copy {
  const CLI::Option* option;
  Target from;
  Target to;
};
using Copies = std::vector<Copy>;

// What the generated callbacks share; kept alive by them.
struct Binding {
  Binding(Runner& r, const FlagSet& f, BindOptions o)
      : runner(r), flags(f), options(std::move(o)) {}
  Runner& runner;
  const FlagSet& flags;
  BindOptions options;
  std::vector<std::string> skip_phases;  // --skip-phases
};

void Report(const Binding& binding, const Status& status, const std::string& failed_phase) {
  if (binding.options.on_done) binding.options.on_done(status, failed_phase);
}

void CopyTarget(const Target& from, const Target& to) {
  if (auto* flag = std::get_if<bool*>(&from)) {
    *std::get<bool*>(to) = **flag;
  } else if (auto* text = std::get_if<std::string*>(&from)) {
    *std::get<std::string*>(to) = **text;
  } else {
    *std::get<std::vector<std::string>*>(to) = *std::get<std::vector<std::string>*>(from);
  }
}

CLI::Option* AddLocalFlag(CLI::App& app, const LocalFlag& flag) {
  std::string name = "--" + flag.name;
  if (auto* value = std::get_if<bool*>(&flag.target)) {
    return app.add_flag(name, **value, flag.help);
  }
  if (auto* text = std::get_if<std::string*>(&flag.target)) {
    return app.add_option(name, **text, flag.help);
  }
  // One argument per occurrence, as pflag's: `--name a,b POSITIONAL` leaves POSITIONAL alone.
  return app.add_option(name, *std::get<std::vector<std::string>*>(flag.target), flag.help)
      ->delimiter(',')
      ->allow_extra_args(false);
}

// Adds to app the local flags of entries [begin, end), each name once; returns the copies needed
// when several phases share a name (CheckPhaseFlags made sure they share its type too).
Copies AddLocalFlags(CLI::App& app, const Runner& runner, std::size_t begin, std::size_t end) {
  std::vector<std::pair<const LocalFlag*, CLI::Option*>> added;
  Copies copies;
  for (std::size_t i = begin; i < end; ++i) {
    for (const auto& flag : runner.entries()[i].phase->local_flags) {
      auto same = std::find_if(added.begin(), added.end(),
                               [&flag](const auto& a) { return a.first->name == flag.name; });
      if (same == added.end()) {
        added.emplace_back(&flag, AddLocalFlag(app, flag));
      } else if (same->first->target != flag.target) {
        copies.push_back(Copy{same->second, same->first->target, flag.target});
      }
    }
  }
  return copies;
}

// Adds to app every_phase_flags and the inherit_flags of entries [begin, end), each name once
// (CheckPhaseFlags made sure that each is in the FlagSet).
void AddInheritedFlags(CLI::App& app, const Binding& binding, std::size_t begin, std::size_t end) {
  std::vector<std::string> names = binding.options.every_phase_flags;
  for (std::size_t i = begin; i < end; ++i) {
    const auto& inherit = binding.runner.entries()[i].phase->inherit_flags;
    names.insert(names.end(), inherit.begin(), inherit.end());
  }
  std::set<std::string> added;
  for (const auto& name : names) {
    if (added.insert(name).second) binding.flags.Add(app, name);
  }
}

Copies AddPhaseFlags(CLI::App& app, const Binding& binding, std::size_t begin, std::size_t end) {
  AddInheritedFlags(app, binding, begin, end);
  return AddLocalFlags(app, binding.runner, begin, end);
}

// Makes app run the workflow filtered to path when it is the command chosen.
void SetRunCallback(CLI::App& app, std::shared_ptr<Binding> binding, std::string path,
                    Copies copies) {
  app.callback([binding, path = std::move(path), copies = std::move(copies)] {
    for (const auto& copy : copies) {
      if (copy.option->count() > 0) CopyTarget(copy.from, copy.to);
    }
    RunOptions options;
    options.filter_path = path;
    Status status = binding->runner.Run(options);
    Report(*binding, status, binding->runner.failed_phase());
  });
}

// A command that only groups others prints its help when invoked alone, like kubeadm's.
// At most one subcommand is taken, so `phase preflight certs` is an error, not two runs.
void SetHelpCallback(CLI::App* app) {
  app->require_subcommand(0, 1);
  app->callback([app] {
    if (app->get_subcommands().empty()) throw CLI::CallForHelp();
  });
}

CLI::App* AddPhaseCommand(CLI::App& parent, const Phase& phase) {
  CLI::App* app = parent.add_subcommand(phase.name, phase.description);
  for (const auto& alias : phase.aliases) app->alias(alias);
  std::string footer = phase.long_description;
  if (!phase.example.empty()) {
    footer += (footer.empty() ? "" : "\n\n") + std::string("Examples:\n") + phase.example;
  }
  if (!footer.empty()) app->footer(footer);
  app->fallthrough();
  return app;
}

// CLI11 throws CLI::Error for a name it refuses (a bug in the command's definition).
void AddPhaseCommands(CLI::App& phase_command, const std::shared_ptr<Binding>& binding) {
  const auto& entries = binding->runner.entries();
  std::vector<CLI::App*> apps(entries.size(), nullptr);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Runner::Entry& entry = entries[i];
    CLI::App* parent = entry.parent < 0 ? &phase_command : apps[entry.parent];
    if (entry.phase->hidden || parent == nullptr) continue;  // hidden, or below a hidden phase
    CLI::App* app = AddPhaseCommand(*parent, *entry.phase);
    apps[i] = app;
    if (entry.end == i + 1) {
      SetRunCallback(*app, binding, entry.path, AddPhaseFlags(*app, *binding, i, i + 1));
      continue;
    }
    SetHelpCallback(app);
    CLI::App* all = app->add_subcommand("all", "Run all " + entry.phase->name + " phases");
    all->fallthrough();
    SetRunCallback(*all, binding, entry.path, AddPhaseFlags(*all, *binding, i, entry.end));
  }
}

// Shows the main command's flag group as a plain "Flags:" section instead of CLI11's
// "[Option Group: Flags]" block.
class CommandFormatter : public CLI::Formatter {
 public:
  std::string make_expanded(const CLI::App* sub) const override {
    if (!sub->get_name().empty()) return CLI::Formatter::make_expanded(sub);
    return make_positionals(sub) + make_groups(sub, CLI::AppFormatMode::Sub);
  }
};

// The main command's run: data first (so resolve_skip_phases can read the config), then all
// phases but the skipped ones.
void RunWorkflow(Binding& binding) {
  RunOptions options;
  options.skip_phases = binding.skip_phases;
  if (binding.options.resolve_skip_phases) {
    Status status = binding.runner.InitData();
    if (status.ok()) {
      auto resolved = binding.options.resolve_skip_phases(options.skip_phases);
      if (resolved.has_value()) options.skip_phases = std::move(resolved).value();
      status = resolved.status();
    }
    if (!status.ok()) return Report(binding, status, "");
  }
  Status status = binding.runner.Run(options);
  Report(binding, status, binding.runner.failed_phase());
}

// What the phase subcommands need of the flag definitions, checked without building them: every
// flag a phase inherits exists, and local flags that share a name within a subtree have one type.
Status CheckPhaseFlags(const Binding& binding) {
  const auto& entries = binding.runner.entries();
  for (const auto& name : binding.options.every_phase_flags) {
    if (!binding.flags.Has(name))
      return Internal("every phase inherits unknown flag \"" + name + "\"");
  }
  for (std::size_t i = 0; i < entries.size(); ++i) {
    for (const auto& name : entries[i].phase->inherit_flags) {
      if (!binding.flags.Has(name)) {
        return Internal("phase \"" + entries[i].path + "\" inherits unknown flag \"" + name + "\"");
      }
    }
    std::vector<const LocalFlag*> seen;  // the local flags of the subtree at i, as AddLocalFlags
    for (std::size_t j = i; j < entries[i].end; ++j) {
      for (const auto& flag : entries[j].phase->local_flags) {
        for (const LocalFlag* other : seen) {
          if (other->name == flag.name && other->target.index() != flag.target.index()) {
            return Internal("local flag --" + flag.name + " of phase " + entries[j].path +
                            " has another type than a flag of the same name");
          }
        }
        seen.push_back(&flag);
      }
    }
  }
  return Status::Ok();
}

Status Bind(CLI::App& cmd, const std::shared_ptr<Binding>& binding) {
  KKADM_RETURN_IF_ERROR(CheckPhaseFlags(*binding));
  // The main command's own flags live in a group that is switched off once `phase` is seen:
  // through fallthrough a phase subcommand would otherwise accept every flag of the command.
  cmd.formatter(std::make_shared<CommandFormatter>());
  CLI::Option_group* main_flags = cmd.add_option_group("Flags");
  main_flags->option_defaults()->group("Flags");
  binding->flags.AddAll(*main_flags);
  main_flags->add_option("--skip-phases", binding->skip_phases, "List of phases to be skipped")
      ->delimiter(',')
      ->allow_extra_args(false);

  CLI::App* phase_command = cmd.add_subcommand(
      "phase", "Use this command to invoke single phase of the " + cmd.get_name() + " workflow");
  phase_command->fallthrough();
  SetHelpCallback(phase_command);
  main_flags->disabled_by_default(false);
  main_flags->enabled_by_default();
  bool built = false;
  if (binding->options.phase_commands_now) {
    AddPhaseCommands(*phase_command, binding);  // BindToCommand turns CLI::Error into Internal
    built = true;
  }
  // Otherwise the phase subcommands (a few hundred CLI11 options over all commands, a third of a
  // short command's start-up) are built only when `phase` is on the command line.
  phase_command->preparse_callback(
      [binding, phase_command, main_flags, built](std::size_t) mutable {
        main_flags->disabled();                  // CLI::TriggerOff's part
        if (std::exchange(built, true)) return;  // parsed again (tests parse one app many times)
        AddPhaseCommands(*phase_command, binding);
      });

  cmd.fallthrough();
  cmd.callback([binding, phase_command] {
    if (!phase_command->parsed()) RunWorkflow(*binding);
  });
  std::string use = binding->options.use.empty() ? cmd.get_name() : binding->options.use;
  std::string footer = cmd.get_footer();
  cmd.footer((footer.empty() ? "" : footer + "\n\n") + binding->runner.Help(use));
  return Status::Ok();
}

}  // namespace

Status BindToCommand(CLI::App& cmd, Runner& runner, const FlagSet& flags, BindOptions options) {
  KKADM_RETURN_IF_ERROR(runner.tree_status());
  if (!flags.duplicate().empty()) {
    return Internal("flag \"" + flags.duplicate() + "\" registered twice for " + cmd.get_name());
  }
  auto binding = std::make_shared<Binding>(runner, flags, std::move(options));
  try {
    return Bind(cmd, binding);
  } catch (const CLI::Error& e) {
    return Internal("binding the phases of " + cmd.get_name() + ": " + e.what());
  }
}

}  // namespace kkadm::workflow
