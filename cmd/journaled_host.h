// The node's journal for a command that changes the node (init, join): the journal read from the
// node, the host phases see (files and units recorded as they are made) and the observer that
// plans and records the run.
#pragma once

#include <memory>
#include <string>

#include "app/phases/journal/journal.h"
#include "app/phases/journal/journal_observer.h"
#include "app/phases/journal/journaling_seams.h"
#include "app/util/host.h"
#include "app/util/printer.h"

namespace kkadm::cmd {

class JournaledHost {
 public:
  // Reads the journal of the node `host` reaches (an error when it cannot be read). `host` must
  // outlive the result.
  static Result<std::unique_ptr<JournaledHost>> Make(util::Host& host, util::Printer& printer,
                                                     const std::string& command, bool force);

  // The host phases are given: its file system and service manager tell the journal.
  util::Host& host() { return host_; }
  phases::journal::JournalObserver& observer() { return observer_; }

  JournaledHost(util::Host& host, util::Printer& printer, phases::journal::RunIdentity identity,
                bool force);

 private:
  phases::journal::Journal journal_;
  phases::journal::JournalingFileSystem fs_;
  phases::journal::JournalingInitSystem init_;
  phases::journal::JournalObserver observer_;
  util::Host host_;
};

}  // namespace kkadm::cmd
