// ResetRecorder: reset's own records in the node's journal, and the resumption of a reset.
#include "cmd/reset_journal.h"

namespace kkadm::cmd {

namespace journal = phases::journal;

ResetRecorder::ResetRecorder(journal::Journal& journal, util::FileSystem& node,
                             util::Printer& printer, std::string version, std::string boot_id)
    : journal_(journal),
      node_(node),
      printer_(printer),
      version_(std::move(version)),
      boot_id_(std::move(boot_id)) {}

Result<std::vector<bool>> ResetRecorder::Plan(const std::vector<workflow::PhaseEntry>& entries,
                                              const std::vector<bool>& selected,
                                              bool phase_command) {
  std::vector<bool> run = selected;
  const journal::JournalState& state = journal_.state();
  const bool resuming =
      !phase_command && !state.runs.empty() && state.runs.back().command == "reset";
  for (std::size_t i = 0; resuming && i < entries.size(); ++i) {
    if (!selected[i] || !entries[i].phase->run || entries[i].path == "preflight") continue;
    const journal::PhaseRecord* record = state.Find("reset", entries[i].path);
    if (record == nullptr || record->state != journal::PhaseState::kDone) continue;
    run[i] = false;
    printer_.Line(entries[i].path, "Done by the reset that was interrupted, not run again");
  }
  if (Recording()) KKADM_RETURN_IF_ERROR(journal_.BeginRun("reset", version_, boot_id_));
  return run;
}

Status ResetRecorder::PhaseStarting(const workflow::PhaseEntry& entry) {
  if (!entry.phase->run || !Recording()) return Status();
  return journal_.PhaseStarted(entry.path, "", {});
}

Status ResetRecorder::PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome,
                                 bool ran) {
  if (!entry.phase->run) return outcome;
  const journal::PhaseState state = !outcome.ok() ? journal::PhaseState::kFailed
                                    : ran         ? journal::PhaseState::kDone
                                                  : journal::PhaseState::kSkipped;
  journal_.PhaseEnded(state, outcome.ok() ? "" : outcome.message());
  // At once: a reset killed in its next phase must know this one is done.
  if (Recording()) {
    Status flushed = journal_.Flush();
    if (flushed_.ok()) flushed_ = flushed;
  }
  return outcome;
}

Status ResetRecorder::RunEnded(const Status& outcome) {
  if (!outcome.ok()) return outcome;
  return flushed_;
}

}  // namespace kkadm::cmd
