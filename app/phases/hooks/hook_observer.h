// HookObserver: runs the user's hooks around the phases of a command's run (docs/hooks.md): the
// innermost observer of the command's chain, so the journal records a phase failed by a hook.
// The engine knows nothing of hooks; it sees an observer whose start or end of a phase can fail.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/phases/hooks/binding_context.h"
#include "app/util/clock.h"
#include "app/util/events.h"
#include "app/util/file_system.h"
#include "app/util/printer.h"
#include "app/util/process.h"
#include "app/workflow/observer.h"

namespace kkadm::phases::hooks {

// What a phase made, asked for each phase that ran (it or a hook failed included) as it ends, while
// what it made is still the phase's own: the node's journal answers (cmd/hook_flags.h).
using OutputsSource = std::function<PhaseOutputs(std::string_view phase)>;

// Where a command's hooks are reported besides the log, and what post hooks are told.
struct HookReporting {
  util::Events events = {};            // HookStarted, HookFinished (docs/events.md)
  const util::Clock* clock = nullptr;  // for their durations; null: the real clock
  OutputsSource outputs = {};          // null: post hooks get no "outputs"
};

// Of each stage, the hooks of FindHooks run one after the other (dry run: each is listed as
// "[hooks] Would run <stage>-<phase> hook <path>" and none runs). A fatal hook that fails (an exit
// status other than 0, a signal, its timeout, not startable) fails what it runs around with one
// error naming it, how it ended and the last lines of its stderr; the hooks after it do not run.
// A hook that is not fatal and fails is a warning. Each line a hook writes goes to the log (info).
//   - Plan, unless the run is a `phase` subcommand: the pre hooks of the whole command; their
//     failure refuses the run.
//   - PhaseStarting: the phase's pre hooks; their failure fails the phase.
//   - PhaseEnded: a phase's post hooks, once it and the last of its planned descendants ended
//     (a parent's after its children), told Succeeded, or Skipped when its run condition said no,
//     and what it made (a parent: its descendants too). A fatal failure fails the phase.
//   - RunEnded: the post hooks of phases a failure left open (told Failed), innermost first, then,
//     unless a `phase` subcommand, those of the whole command, told how the run ended. Their
//     failure fails a run that succeeded; after a failed run it is only logged.
class HookObserver final : public workflow::RunObserver {
 public:
  // `fs` (the node's files, for finding hooks) and `runner` must outlive the observer.
  HookObserver(const util::FileSystem& fs, util::ProcessRunner& runner, util::Printer& out,
               RunFacts facts, HookReporting reporting = {});

  Result<std::vector<bool>> Plan(const std::vector<workflow::PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool phase_command) override;
  Status PhaseStarting(const workflow::PhaseEntry& entry) override;
  Status PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome, bool ran) override;
  Status RunEnded(const Status& outcome) override;

 private:
  // Runs the hooks of one stage; `i` is the phase's entry (npos: the whole command's).
  Status RunHooks(std::size_t i, Stage stage, std::optional<PhaseResult> result);
  Status RunHook(const HookCall& call, const std::string& label);
  // Runs the post hooks of entry `i` once: OK when they ran before.
  Status Close(std::size_t i, PhaseResult result);
  // Takes what entry `i` made from the source and adds it to its ancestors'.
  void CollectOutputs(std::size_t i);
  std::size_t IndexOf(const workflow::PhaseEntry& entry) const;

  static constexpr std::size_t kCommand = static_cast<std::size_t>(-1);  // the command's own

  const util::FileSystem& fs_;
  util::ProcessRunner& runner_;
  util::Printer& out_;
  RunFacts facts_;
  HookReporting reporting_;
  const util::Clock& clock_;
  bool phase_command_ = false;
  std::vector<std::string> paths_;
  std::vector<int> parents_;
  std::vector<std::size_t> last_planned_;  // per entry: its subtree's last planned entry
  std::vector<bool> open_;                 // pre hooks ran, post hooks not yet
  std::vector<PhaseOutputs> outputs_;      // per entry, its subtree's so far
  PhaseOutputs all_outputs_;               // the whole run's, for the command's post hooks
  std::string run_error_;                  // a failed run's error, for post hooks told Failed
  std::map<std::string, std::size_t, std::less<>> index_;
};

}  // namespace kkadm::phases::hooks
