// JournalObserver: a command's run as its journal sees it. Before any phase runs it decides what
// need not run again (a phase recorded done, or left out by its run condition, with the same
// inputs and its files as it left them, while every phase before it is too), refuses a run whose
// inputs differ from a finished phase's, or that would overwrite files someone changed since,
// and undoes what an interrupted attempt of a phase made. While phases run it records each in
// the journal and keeps /run/kkadm/status.json current for whoever watches the node.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/phases/journal/drift.h"
#include "app/phases/journal/journal.h"
#include "app/util/file_system.h"
#include "app/util/printer.h"
#include "app/workflow/observer.h"

namespace kkadm::phases::journal {

struct RunIdentity {
  std::string command;  // "init", "join"
  std::string version;  // kkadm's
  std::string boot_id;
};

class JournalObserver final : public workflow::RunObserver {
 public:
  // `node` is the node's file system without journaling (the journal's own, and what undoing an
  // attempt removes). `force`: files changed since kkadm wrote them are overwritten.
  JournalObserver(Journal& journal, util::FileSystem& node, util::Printer& printer,
                  RunIdentity identity, bool force);

  // Undoes what every attempt of a phase that did not finish made (a key without its
  // certificate, temporary files of writes it began), before anything reads the node: called
  // once the journal is loaded.
  Status RecoverUnfinishedAttempts();

  Result<std::vector<bool>> Plan(const std::vector<workflow::PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool phase_command) override;
  Status PhaseStarting(const workflow::PhaseEntry& entry) override;
  Status PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome, bool ran) override;
  Status RunEnded(const Status& outcome) override;

  // The recorded files of `record` that are missing or changed (FindDrift), found once per run:
  // pre-flight's view of the command's own work and the plan read each file once, not twice. Call
  // it only before the run changes the node (pre-flight's inputs are taken, then Plan).
  const std::vector<FileDrift>& Drift(const PhaseRecord& record) const;

 private:
  // One selected phase as the journal sees it before the run.
  struct Planned {
    std::vector<workflow::PhaseInput> inputs;  // stored form
    std::string fingerprint;
    const PhaseRecord* record = nullptr;  // null: never recorded
    bool finished = false;                // done or left out, with these inputs
    std::vector<FileDrift> drift;         // of its files, when done or left out
  };
  struct PhaseStatus {
    std::string path, state, started, ended;
  };
  Planned Assess(const workflow::PhaseEntry& entry) const;
  Status CheckInputs(const std::vector<workflow::PhaseEntry>& entries,
                     const std::vector<bool>& selected) const;
  Status CheckOverwrites(const std::vector<workflow::PhaseEntry>& entries,
                         const std::vector<bool>& run, bool phase_command);
  void SayUpToDate(const std::vector<workflow::PhaseEntry>& entries,
                   const std::vector<bool>& selected, const std::vector<bool>& run) const;
  Status UndoUnfinishedAttempt(const PhaseRecord& record);
  void RemoveTempFiles(const std::string& path);
  Status WriteStatus(const std::string& state);

  Journal& journal_;
  util::FileSystem& node_;
  util::Printer& printer_;
  RunIdentity identity_;
  bool force_;
  const std::vector<workflow::PhaseEntry>* entries_ = nullptr;  // the tree Plan was given
  std::vector<Planned> planned_;                                // by entry index
  // RewritingFiles of the journal once its unfinished attempts are recovered, and each recorded
  // phase's drift by "<command> <path>": found on first use.
  mutable std::optional<std::set<std::string>> rewriting_;
  mutable std::map<std::string, std::vector<FileDrift>> drift_;
  std::vector<PhaseStatus> phases_;  // run so far, for the status
  std::string current_;              // the running phase
  std::string started_;
  bool node_has_run_dir_ = false;  // /run, where the status goes; looked up once by Plan
  Status flush_error_;             // of a flush at a phase's end: the run stops there
};

}  // namespace kkadm::phases::journal
