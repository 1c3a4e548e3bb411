// ResetRecorder: `kkadm reset` on a node with kkadm's journal records its own run in it (command
// "reset"), so that a reset killed half way and run again does not repeat a phase it finished (a
// member already taken out of etcd, whose etcd may be stopped by now) and finishes the rest. It
// never makes a journal: once cleanup-node has removed the journal, nothing more is recorded.
#pragma once

#include <string>
#include <vector>

#include "app/phases/journal/journal.h"
#include "app/util/file_system.h"
#include "app/util/printer.h"
#include "app/workflow/observer.h"

namespace kkadm::cmd {

class ResetRecorder final : public workflow::RunObserver {
 public:
  // `journal` is loaded from `node`, the node's file system as the journal's writes reach it.
  ResetRecorder(phases::journal::Journal& journal, util::FileSystem& node, util::Printer& printer,
                std::string version, std::string boot_id);

  // When the journal's last run is a reset (it was interrupted: a reset that finishes takes the
  // journal away), the phases it recorded done are left out, except preflight, which asks again.
  Result<std::vector<bool>> Plan(const std::vector<workflow::PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool phase_command) override;
  Status PhaseStarting(const workflow::PhaseEntry& entry) override;
  Status PhaseEnded(const workflow::PhaseEntry& entry, const Status& outcome, bool ran) override;
  Status RunEnded(const Status& outcome) override;

 private:
  // Whether the journal is still on the node (cleanup-node removes it last).
  bool Recording() const { return node_.Exists(phases::journal::kJournalPath); }

  phases::journal::Journal& journal_;
  util::FileSystem& node_;
  util::Printer& printer_;
  std::string version_, boot_id_;
  Status flushed_;  // the first failure to record a phase's end
};

}  // namespace kkadm::cmd
