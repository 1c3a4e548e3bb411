// ObserverChain: see observer_chain.h.
#include "app/workflow/observer_chain.h"

#include <cstddef>
#include <utility>

namespace kkadm::workflow {

Result<std::vector<bool>> ObserverChain::Plan(const std::vector<PhaseEntry>& entries,
                                              const std::vector<bool>& selected,
                                              bool phase_command) {
  std::vector<bool> planned = selected;
  for (RunObserver* observer : observers_) {
    Result<std::vector<bool>> narrowed = observer->Plan(entries, planned, phase_command);
    if (!narrowed.has_value()) return std::move(narrowed).error();
    planned = std::move(*narrowed);
  }
  return planned;
}

Status ObserverChain::PhaseStarting(const PhaseEntry& entry) {
  for (std::size_t started = 0; started < observers_.size(); ++started) {
    Status status = observers_[started]->PhaseStarting(entry);
    if (status.ok()) continue;
    // The ones already told of the start hear of its end, the error as the phase's outcome.
    for (std::size_t i = started; i-- > 0;) {
      status = observers_[i]->PhaseEnded(entry, status, false);
    }
    return status;
  }
  return Status::Ok();
}

Status ObserverChain::PhaseEnded(const PhaseEntry& entry, const Status& outcome, bool ran) {
  Status status = outcome;
  for (std::size_t i = observers_.size(); i-- > 0;) {
    status = observers_[i]->PhaseEnded(entry, status, ran);
  }
  return status;
}

Status ObserverChain::RunEnded(const Status& outcome) {
  Status status = outcome;
  for (std::size_t i = observers_.size(); i-- > 0;) status = observers_[i]->RunEnded(status);
  return status;
}

}  // namespace kkadm::workflow
