// EventObserver: phase events and the timing table.
#include "app/phases/events/event_observer.h"

#include <utility>

namespace kkadm::phases::events {
namespace {

constexpr std::size_t kAll = static_cast<std::size_t>(-1);

}  // namespace

Result<std::vector<bool>> EventObserver::Plan(const std::vector<workflow::PhaseEntry>& entries,
                                              const std::vector<bool>& selected,
                                              bool phase_command) {
  entries_ = &entries;
  phase_command_ = phase_command;
  index_of_.clear();
  for (std::size_t i = 0; i < entries.size(); ++i) index_of_[entries[i].path] = i;
  starts_.assign(entries.size(), TimePoint());
  open_.clear();
  timings_.clear();
  run_start_ = clock_.Now();
  // A phase command runs one subtree: the phases outside it are not news.
  for (std::size_t i = 0; i < entries.size() && !phase_command; ++i) {
    if (selected[i]) continue;
    events_.Emit("PhaseSkipped", {{"phase", entries[i].path}, {"reason", "not-planned"}});
    if (entries[i].level == 0) {
      timings_.push_back({entries[i].path, PhaseResult::kSkipped, {}});
    }
  }
  return selected;
}

Status EventObserver::PhaseStarting(const workflow::PhaseEntry& entry) {
  const std::size_t index = index_of_.at(entry.path);
  CloseParents(index, nullptr);
  starts_[index] = clock_.Now();
  events_.Emit("PhaseStarted", {{"phase", entry.path}});
  return Status::Ok();
}

Status EventObserver::PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome,
                                 bool ran) {
  const std::size_t index = index_of_.at(entry.path);
  if (ran && outcome.ok() && entry.end > index + 1) {
    open_.push_back({index, starts_[index]});  // finished with its last child
    return outcome;
  }
  if (!ran && outcome.ok()) {
    events_.Emit("PhaseSkipped", {{"phase", entry.path}, {"reason", "condition"}});
    if (entry.level == 0) timings_.push_back({entry.path, PhaseResult::kSkipped, {}});
    return outcome;
  }
  Finish(index, starts_[index], outcome);
  return outcome;
}

Status EventObserver::RunEnded(const Status& outcome) {
  CloseParents(kAll, outcome.ok() ? nullptr : &outcome);
  // Only after a run that succeeded: a failure's stderr is its one error line (the figures of a
  // failed run are in its events).
  if (outcome.ok() && table_ != nullptr && !phase_command_ && entries_ != nullptr) {
    // The top-level phases in the order they were planned, skipped ones where they belong.
    std::vector<PhaseTiming> ordered;
    for (const workflow::PhaseEntry& entry : *entries_) {
      for (const PhaseTiming& timing : timings_) {
        if (timing.path == entry.path) ordered.push_back(timing);
      }
    }
    table_->Raw(TimingTable(ordered, clock_.Now() - run_start_));
  }
  return outcome;
}

void EventObserver::CloseParents(std::size_t index, const Status* failure) {
  while (!open_.empty() && (index == kAll || (*entries_)[open_.back().index].end <= index)) {
    const Open parent = open_.back();
    open_.pop_back();
    Finish(parent.index, parent.start, failure != nullptr ? *failure : Status::Ok());
  }
}

void EventObserver::Finish(std::size_t index, TimePoint start, const Status& outcome) {
  const workflow::PhaseEntry& entry = (*entries_)[index];
  const std::chrono::nanoseconds duration = clock_.Now() - start;
  if (outcome.ok()) {
    events_.Emit("PhaseFinished", {{"phase", entry.path}, {"durationSeconds", Seconds(duration)}});
  } else {
    events_.Emit("PhaseFailed", {{"phase", entry.path},
                                 {"durationSeconds", Seconds(duration)},
                                 {"error", outcome.message()}});
  }
  if (entry.level == 0) {
    timings_.push_back(
        {entry.path, outcome.ok() ? PhaseResult::kSucceeded : PhaseResult::kFailed, duration});
  }
}

}  // namespace kkadm::phases::events
