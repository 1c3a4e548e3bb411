// HookObserver: runs the user's hooks around the phases of a command's run (docs/hooks.md): the
// innermost observer of the command's chain, so the journal records a phase failed by a hook.
// The engine knows nothing of hooks; it sees an observer whose start or end of a phase can fail.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/phases/hooks/binding_context.h"
#include "app/util/file_system.h"
#include "app/util/printer.h"
#include "app/util/process.h"
#include "app/workflow/observer.h"

namespace kkadm::phases::hooks {

// Of each stage, the hooks of FindHooks run one after the other (dry run: each is listed as
// "[hooks] Would run <stage>-<phase> hook <path>" and none runs). A fatal hook that fails (an exit
// status other than 0, a signal, its timeout, not startable) fails what it runs around with one
// error naming it, how it ended and the last lines of its stderr; the hooks after it do not run.
// A hook that is not fatal and fails is a warning. Each line a hook writes goes to the log (info).
//   - Plan, unless the run is a `phase` subcommand: the pre hooks of the whole command; their
//     failure refuses the run.
//   - PhaseStarting: the phase's pre hooks; their failure fails the phase.
//   - PhaseEnded: a phase's post hooks, once it and the last of its planned descendants ended
//     (a parent's after its children), told Succeeded, or Skipped when its run condition said no.
//     A fatal failure fails the phase.
//   - RunEnded: the post hooks of phases a failure left open (told Failed), innermost first, then,
//     unless a `phase` subcommand, those of the whole command, told how the run ended. Their
//     failure fails a run that succeeded; after a failed run it is only logged.
class HookObserver final : public workflow::RunObserver {
 public:
  // `fs` (the node's files, for finding hooks) and `runner` must outlive the observer.
  HookObserver(const util::FileSystem& fs, util::ProcessRunner& runner, util::Printer& out,
               RunFacts facts);

  Result<std::vector<bool>> Plan(const std::vector<workflow::PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool phase_command) override;
  Status PhaseStarting(const workflow::PhaseEntry& entry) override;
  Status PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome, bool ran) override;
  Status RunEnded(const Status& outcome) override;

 private:
  Status RunHooks(std::string_view phase, Stage stage, std::optional<PhaseResult> result);
  Status RunHook(const HookCall& call, const std::string& label);
  // Runs the post hooks of entry `i` once: OK when they ran before.
  Status Close(std::size_t i, PhaseResult result);
  std::size_t IndexOf(const workflow::PhaseEntry& entry) const;

  const util::FileSystem& fs_;
  util::ProcessRunner& runner_;
  util::Printer& out_;
  RunFacts facts_;
  bool phase_command_ = false;
  std::vector<std::string> paths_;
  std::vector<int> parents_;
  std::vector<std::size_t> last_planned_;  // per entry: its subtree's last planned entry
  std::vector<bool> open_;                 // pre hooks ran, post hooks not yet
  std::map<std::string, std::size_t, std::less<>> index_;
};

}  // namespace kkadm::phases::hooks
