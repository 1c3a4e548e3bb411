// Runner: executes a tree of Phases the way kubeadm's workflow runner does (order, filter, skip,
// dependencies, run conditions, one-time data initialisation, help text).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/util/status.h"
#include "app/workflow/observer.h"
#include "app/workflow/phase.h"

namespace kkadm::workflow {

struct RunOptions {
  // Only this full path ("certs", "certs/ca") and its descendants run; set by `phase` subcommands.
  std::optional<std::string> filter_path;
  // Full paths not to run, each with its descendants (`--skip-phases`). Matching is exact.
  std::vector<std::string> skip_phases;
};

// Phases are addressed by their full path: the phase name at top level, `parent/child` below
// (any depth). The execution order is depth-first pre-order: a parent, then its children in order.
//
// A Runner keeps pointers into its own phase tree and is bound by reference to CLI callbacks, so it
// is neither copyable nor movable: construct it where it lives (a command object's member).
class Runner {
 public:
  // Validates the tree: every name kebab-case, names and aliases unique among siblings, "all" not
  // used (the CLI adds it to every parent), every dependency naming some phase of the tree. An
  // invalid tree is a bug in the command; tree_status() says why and Run() returns it.
  explicit Runner(std::vector<Phase> phases);
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const Status& tree_status() const { return tree_status_; }

  // The function that turns the command's raw options into the data the phases read. It runs at
  // most once per Runner, on the first InitData()/Run(); its result is cached, so a second Run (or
  // the command calling InitData() before Run) does not initialise again, and a failure is returned
  // again without a retry. Setting a new initializer forgets the cached result.
  void SetDataInitializer(std::function<Status()> initializer);
  Status InitData();

  // What an "invalid phase name" error adds right after the name, e.g. kkadm's "(did you mean
  // ...)" from the valid names; unset adds nothing. (The engine keeps no text rules of its own.)
  using UnknownNameHint =
      std::function<std::string(const std::string& name, const std::vector<std::string>& valid)>;
  void SetUnknownNameHint(UnknownNameHint hint) { unknown_name_hint_ = std::move(hint); }

  // Watches every later Run (not owned; null: none). See observer.h.
  void SetObserver(RunObserver* observer) { observer_ = observer; }

  // Runs the selected phases in order. Before anything runs: the filter path and every skip name
  // must be existing full paths (else InvalidArgument "invalid phase name: <name>[<hint>]; valid
  // phase names are: a, a/b, ..."; "<parent>/all" is also accepted as a skip name and skips
  // nothing, as in kubeadm), and every dependency of a selected phase must be the raw name of a
  // selected phase visited earlier (else InvalidArgument "unresolved dependencies:\n\tmissing [x y]
  // phase(s) needed by "<name>" phase"). Then data is initialised, every selected phase's check is
  // called (error -> "error execution phase <path>: <cause>", and no phase runs), then the
  // observer's Plan (which may leave phases out or refuse the run), then each planned phase's
  // prepare, and for each planned phase run_if (error
  // -> "error execution run condition for phase <path>: <cause>"; false -> skipped) and run (error
  // -> "error execution phase <path>: <cause>", same StatusCode). The first failure stops the run;
  // nothing is rolled back.
  Status Run(const RunOptions& options);

  // Full path of the phase whose check, run or run_if failed in the last Run; empty if none did.
  const std::string& failed_phase() const { return failed_phase_; }

  // Every full path, hidden ones included, in execution order.
  std::vector<std::string> AllPaths() const;

  // kubeadm's phase list for a command's help: `The "<use>" command executes the following
  // phases:`, then a ``` block with one line per visible phase (hidden phases and their
  // descendants are left out): 2*level spaces, the name (top level) or /name (nested) padded to
  // the longest such name + 2, the description.
  std::string Help(const std::string& command_use) const;

  // The tree as flattened for the CLI binding: one entry per phase in execution order.
  using Entry = PhaseEntry;
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  void Flatten(const std::vector<Phase>& phases, int level, int parent);
  Status Validate(const std::vector<Phase>& siblings, const std::string& parent_path) const;
  Result<std::vector<bool>> SelectPhases(const RunOptions& options) const;
  Status CheckDependencies(const std::vector<bool>& selected) const;
  Status CheckPhases(const std::vector<bool>& selected);
  Result<std::vector<bool>> PlanPhases(const std::vector<bool>& selected, bool phase_command);
  Status RunPlanned(const std::vector<bool>& planned);
  Status RunPhase(const Entry& entry, bool& ran);
  Status InvalidPhaseName(const std::string& name) const;
  std::optional<std::size_t> Find(const std::string& path) const;

  std::vector<Phase> phases_;
  std::vector<Entry> entries_;
  Status tree_status_;
  std::function<Status()> initializer_;
  std::optional<Status> init_status_;  // set once the initializer ran
  std::string failed_phase_;
  UnknownNameHint unknown_name_hint_;
  RunObserver* observer_ = nullptr;
};

}  // namespace kkadm::workflow
