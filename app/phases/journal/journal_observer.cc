// JournalObserver: plans a run from the journal, records it, publishes its status.
#include "app/phases/journal/journal_observer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/phases/journal/fingerprint.h"

namespace kkadm::phases::journal {
namespace {

bool Finished(PhaseState state) {
  return state == PhaseState::kDone || state == PhaseState::kSkipped;
}

// Whether no entry of i's subtree runs.
bool NoneRuns(const std::vector<workflow::PhaseEntry>& entries, const std::vector<bool>& run,
              std::size_t i) {
  return std::none_of(run.begin() + static_cast<long>(i),
                      run.begin() + static_cast<long>(entries[i].end), [](bool r) { return r; });
}

}  // namespace

JournalObserver::JournalObserver(Journal& journal, util::FileSystem& node, util::Printer& printer,
                                 RunIdentity identity, bool force)
    : journal_(journal),
      node_(node),
      printer_(printer),
      identity_(std::move(identity)),
      force_(force) {}

JournalObserver::Planned JournalObserver::Assess(const workflow::PhaseEntry& entry) const {
  Planned planned;
  planned.inputs = StoredInputs(entry.phase->inputs ? entry.phase->inputs()
                                                    : std::vector<workflow::PhaseInput>{});
  planned.fingerprint = Fingerprint(planned.inputs);
  planned.record = journal_.state().Find(identity_.command, entry.path);
  if (planned.record != nullptr && Finished(planned.record->state)) {
    planned.finished = planned.record->fingerprint == planned.fingerprint;
    planned.drift = Drift(*planned.record);
  }
  return planned;
}

const std::vector<FileDrift>& JournalObserver::Drift(const PhaseRecord& record) const {
  if (!rewriting_) rewriting_ = RewritingFiles(journal_.state());
  const std::string key = record.command + " " + record.path;
  auto found = drift_.find(key);
  if (found == drift_.end())
    found = drift_.emplace(key, FindDrift(node_, record, *rewriting_)).first;
  return found->second;
}

Result<std::vector<bool>> JournalObserver::Plan(const std::vector<workflow::PhaseEntry>& entries,
                                                const std::vector<bool>& selected,
                                                bool phase_command) {
  entries_ = &entries;
  planned_.assign(entries.size(), Planned{});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (selected[i] && entries[i].phase->run) planned_[i] = Assess(entries[i]);
  }
  std::vector<bool> run = selected;
  if (!phase_command) {
    KKADM_RETURN_IF_ERROR(CheckInputs(entries, selected));
    // Phases finished as they are now are left out, up to the first that is not: it runs, and
    // every phase after it (they may read what it makes).
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (!selected[i] || !entries[i].phase->run) continue;
      if (!planned_[i].finished || !planned_[i].drift.empty()) break;
      std::fill(run.begin(), run.begin() + static_cast<long>(i) + 1, false);
    }
  }
  KKADM_RETURN_IF_ERROR(CheckOverwrites(entries, run, phase_command));
  SayUpToDate(entries, selected, run);
  KKADM_RETURN_IF_ERROR(journal_.BeginRun(identity_.command, identity_.version, identity_.boot_id));
  started_ = journal_.Now();
  node_has_run_dir_ = node_.Exists("/run");
  // The status is published from the moment the run changes the node: the first phase to do so
  // may be the longest (a join's kubelet-start). The status is advisory: a failure to write it
  // is not the phase's, and the next phase tries again.
  journal_.OnLive([this] { static_cast<void>(WriteStatus("running")); });
  KKADM_RETURN_IF_ERROR(WriteStatus("running"));
  return run;
}

// A finished phase whose inputs changed would be run again (or left as it is) silently.
Status JournalObserver::CheckInputs(const std::vector<workflow::PhaseEntry>& entries,
                                    const std::vector<bool>& selected) const {
  std::vector<std::string> lines;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Planned& planned = planned_[i];
    if (!selected[i] || planned.record == nullptr || !Finished(planned.record->state) ||
        planned.finished) {
      continue;
    }
    for (const std::string& line : InputDifferences(planned.record->inputs, planned.inputs)) {
      lines.push_back(entries[i].path + ": " + line);
    }
  }
  if (lines.empty()) return Status();
  return InvalidArgument(fmt::format(
      "this node's journal ({}) records phases done with other inputs; nothing was changed. "
      "Run 'kkadm reset' to start over, or run a phase alone ('kkadm {} phase <name>') to "
      "redo it with the new inputs:\n\t{}",
      kJournalPath, identity_.command, fmt::join(lines, "\n\t")));
}

// Files someone changed since a finished phase wrote them are not overwritten unless asked to.
Status JournalObserver::CheckOverwrites(const std::vector<workflow::PhaseEntry>& entries,
                                        const std::vector<bool>& run, bool phase_command) {
  std::vector<std::string> changed;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!run[i]) continue;
    for (const FileDrift& drift : planned_[i].drift) {
      if (drift.kind == FileDrift::Kind::kChanged) {
        changed.push_back(fmt::format("{} (written by phase {})", drift.path, entries[i].path));
      }
    }
  }
  if (changed.empty()) return Status();
  if (force_ || phase_command) {
    for (const auto& file : changed) {
      spdlog::warn("overwriting {}: changed since kkadm wrote it", file);
    }
    return Status();
  }
  return FailedPrecondition(fmt::format(
      "files changed since kkadm wrote them would be overwritten; nothing was changed. Run "
      "again with --force to overwrite them: {}",
      fmt::join(changed, ", ")));
}

void JournalObserver::SayUpToDate(const std::vector<workflow::PhaseEntry>& entries,
                                  const std::vector<bool>& selected,
                                  const std::vector<bool>& run) const {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!selected[i] || !NoneRuns(entries, run, i)) continue;
    const int parent = entries[i].parent;
    if (parent >= 0 && selected[parent] && NoneRuns(entries, run, parent)) continue;
    printer_.Line(entries[i].path, "Up to date, not run again");
  }
}

void JournalObserver::RemoveTempFiles(const std::string& path) {
  const std::string dir = util::ParentDirectory(path);
  Result<std::vector<std::string>> names = node_.ListDir(dir);
  if (!names) return;
  const std::string prefix = util::TempFilePrefix(path.substr(path.find_last_of('/') + 1));
  for (const std::string& name : *names) {
    if (name.starts_with(prefix)) {
      static_cast<void>(node_.Remove((dir == "/" ? "" : dir) + "/" + name));
    }
  }
}

// What an attempt that neither finished nor failed cleanly left: the files it created (a key
// without its certificate), the temporary files of writes it began, the directories it made.
Status JournalObserver::UndoUnfinishedAttempt(const PhaseRecord& record) {
  if (Finished(record.state)) return Status();
  for (const auto& list : {&record.attempt_files, &record.attempt_replaced}) {
    for (const std::string& path : *list) RemoveTempFiles(path);
  }
  if (record.attempt_beyond_files) return Status();  // run again as it is: see journal.h
  for (const std::string& path : record.attempt_files) {
    spdlog::debug("removing {}, made by an unfinished attempt of phase {}", path, record.path);
    KKADM_RETURN_IF_ERROR(node_.Remove(path));
  }
  for (auto it = record.attempt_dirs.rbegin(); it != record.attempt_dirs.rend(); ++it) {
    Result<std::vector<std::string>> names = node_.ListDir(*it);
    if (names && names->empty()) KKADM_RETURN_IF_ERROR(node_.Remove(*it));
  }
  return Status();
}

Status JournalObserver::RecoverUnfinishedAttempts() {
  RemoveTempFiles(kStatusPath);   // a killed run's
  RemoveTempFiles(kJournalPath);  // a journal killed as it was made (util::FileSystem::AppendFile)
  for (const PhaseRecord& record : journal_.state().phases) {
    KKADM_RETURN_IF_ERROR(UndoUnfinishedAttempt(record));
  }
  return Status();
}

Status JournalObserver::PhaseStarting(const workflow::PhaseEntry& entry) {
  // A phase that started a unit or added an etcd member and could not be recorded done: no
  // later phase runs on top of it.
  KKADM_RETURN_IF_ERROR(flush_error_);
  if (!entry.phase->run) return Status();
  const Planned& planned = planned_[static_cast<std::size_t>(&entry - entries_->data())];
  KKADM_RETURN_IF_ERROR(journal_.PhaseStarted(entry.path, planned.fingerprint, planned.inputs));
  current_ = entry.path;
  phases_.push_back(PhaseStatus{entry.path, "running", journal_.Now(), ""});
  return WriteStatus("running");
}

Status JournalObserver::PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome,
                                   bool ran) {
  if (!entry.phase->run) return outcome;
  const PhaseState state = !outcome.ok() ? PhaseState::kFailed
                           : ran         ? PhaseState::kDone
                                         : PhaseState::kSkipped;
  const PhaseRecord* record = journal_.state().Find(identity_.command, entry.path);
  const bool beyond_files = record != nullptr && record->attempt_beyond_files;
  journal_.PhaseEnded(state, outcome.ok() ? "" : outcome.message());
  // What a phase did beyond the node's files is recorded at once, not at the next sync: a kill
  // later must not leave a phase that started the kubelet or added an etcd member unfinished
  // (run again, it would be redone over what it started). Its files are made durable first.
  if (beyond_files) {
    Status flushed = journal_.Flush();
    if (!flushed.ok() && flush_error_.ok()) flush_error_ = flushed;
  }
  current_.clear();
  if (!phases_.empty()) {
    phases_.back().state = std::string(StateName(state));
    phases_.back().ended = journal_.Now();
  }
  return outcome;
}

Status JournalObserver::RunEnded(const Status& outcome) {
  Status recorded = journal_.Flush();
  if (!flush_error_.ok()) {
    if (!outcome.ok()) spdlog::warn("recording kkadm's journal: {}", flush_error_.message());
    recorded = flush_error_;
  }
  Status published = WriteStatus(outcome.ok() ? "succeeded" : "failed");
  if (!outcome.ok()) return outcome;
  return recorded.ok() ? published : recorded;
}

// /run/kkadm/status.json: what the command is doing now, for cloud-init and automation. Like
// the journal, only once this run changed the node or the node has a journal; and only into the
// node's /run (a tmpfs on any running system): a node root without one does not get it made.
Status JournalObserver::WriteStatus(const std::string& state) {
  if (!journal_.live() || !node_has_run_dir_) return Status();
  nlohmann::json phases = nlohmann::json::array();
  for (const PhaseStatus& phase : phases_) {
    nlohmann::json entry = {
        {"phase", phase.path}, {"state", phase.state}, {"started", phase.started}};
    if (!phase.ended.empty()) entry["ended"] = phase.ended;
    phases.push_back(std::move(entry));
  }
  nlohmann::json status = {
      {"command", identity_.command}, {"state", state},          {"phase", current_},
      {"started", started_},          {"journal", kJournalPath}, {"phases", std::move(phases)}};
  return node_.WriteFile(kStatusPath, status.dump(2) + "\n", 0644);
}

}  // namespace kkadm::phases::journal
