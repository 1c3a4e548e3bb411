// ObserverChain: several RunObservers watching one run, nested like scopes: the first added is
// the outermost (the journal), each later one sits inside the one before (progress events, then
// hooks). The Runner takes one observer; a command hands it its chain.
#pragma once

#include <vector>

#include "app/util/status.h"
#include "app/workflow/observer.h"

namespace kkadm::workflow {

class ObserverChain final : public RunObserver {
 public:
  // Not owned; it must outlive every run the chain watches.
  void Add(RunObserver& observer) { observers_.push_back(&observer); }

  // Each observer plans from the one before's plan, outermost first: the journal's "done already"
  // is what an inner one sees as not selected. The first refusal refuses the run.
  Result<std::vector<bool>> Plan(const std::vector<PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool phase_command) override;
  // Outermost first. When one fails, those before it are told the phase ended with its error,
  // innermost first, so each start has its end (the journal records the phase failed).
  Status PhaseStarting(const PhaseEntry& entry) override;
  // Innermost first, each handed the outcome as the one inside it left it: a post-phase hook's
  // failure is what the journal records.
  Status PhaseEnded(const PhaseEntry& entry, const Status& outcome, bool ran) override;
  // Innermost first, as PhaseEnded: each gets the run's outcome as the ones inside it left it.
  Status RunEnded(const Status& outcome) override;

 private:
  std::vector<RunObserver*> observers_;
};

}  // namespace kkadm::workflow
