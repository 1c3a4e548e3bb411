// RunObserver: what watches a Runner's run from outside it (the node's journal, progress for
// machines) and may leave out phases that need not run again. The engine knows no observer.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::workflow {

// One phase of the tree as the Runner walks it: the tree flattened in execution order.
struct PhaseEntry {
  const Phase* phase;
  std::string path;  // "certs", "certs/ca"
  int level;         // 0 for top-level phases
  int parent;        // index of the parent entry, -1 at top level
  std::size_t end;   // one past the last descendant's index
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;

  // After data initialisation and the phases' checks, before any phase is prepared or runs.
  // `selected[i]` says whether entries[i] was selected (filter, --skip-phases); the result says
  // which run, a subset of them. `phase_command` is true for `<cmd> phase <name>`. An error
  // refuses the run: Run returns it as it is and no phase runs.
  virtual Result<std::vector<bool>> Plan(const std::vector<PhaseEntry>& entries,
                                         const std::vector<bool>& selected, bool phase_command) = 0;
  // Before the entry's run condition and run; an error stops the run as a failure of the phase.
  virtual Status PhaseStarting(const PhaseEntry& entry) = 0;
  // After it: `ran` is false when its run condition said no. `outcome` is the phase's own. The
  // result is the phase's outcome as the run goes on with it: `outcome` as it is, or an error of
  // the observer's own (a hook run after the phase failed) that fails the phase.
  virtual Status PhaseEnded(const PhaseEntry& entry, const Status& outcome, bool ran) = 0;
  // Once the run ends, with its outcome; what Run returns (an error of the observer's own when
  // the outcome is OK and the observer failed to record it).
  virtual Status RunEnded(const Status& outcome) = 0;
};

}  // namespace kkadm::workflow
