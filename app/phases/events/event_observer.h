// EventObserver: a run's phases as events (started, finished, skipped, failed, with durations)
// and, at the end of a whole command's run, the table of how long each phase took. It sits in a
// command's ObserverChain inside the journal, so it sees the journal's plan.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/phases/events/timing_table.h"
#include "app/util/clock.h"
#include "app/util/events.h"
#include "app/util/printer.h"
#include "app/workflow/observer.h"

namespace kkadm::phases::events {

class EventObserver final : public workflow::RunObserver {
 public:
  // `table` receives the timing table at the end of a run of the whole command (none for
  // `<cmd> phase <name>`); null: no table. Neither is owned.
  EventObserver(const util::Clock& clock, util::Events events, util::Printer* table)
      : clock_(clock), events_(events), table_(table) {}

  // Leaves the plan as it is; a phase not in it is skipped ("not-planned") in the events.
  Result<std::vector<bool>> Plan(const std::vector<workflow::PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool phase_command) override;
  Status PhaseStarting(const workflow::PhaseEntry& entry) override;
  // A phase with children finishes after its last child does: its duration is its subtree's.
  Status PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome, bool ran) override;
  Status RunEnded(const Status& outcome) override;

 private:
  using TimePoint = util::Clock::TimePoint;
  struct Open {
    std::size_t index;
    TimePoint start;
  };

  // Finishes the parents whose subtree ends before `index`; all of them when index is npos.
  void CloseParents(std::size_t index, const Status* failure);
  void Finish(std::size_t index, TimePoint start, const Status& outcome);

  const util::Clock& clock_;
  util::Events events_;
  util::Printer* table_;
  const std::vector<workflow::PhaseEntry>* entries_ = nullptr;
  std::map<std::string, std::size_t> index_of_;
  bool phase_command_ = false;
  TimePoint run_start_;
  std::vector<TimePoint> starts_;
  std::vector<Open> open_;  // started parents, outermost first
  std::vector<PhaseTiming> timings_;
};

}  // namespace kkadm::phases::events
