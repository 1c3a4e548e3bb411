// The node's journal for a command that changes the node (init, join): the journal read from the
// node, the host phases see (files and units recorded as they are made) and the observer that
// plans and records the run.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/phases/journal/journal.h"
#include "app/phases/journal/journal_observer.h"
#include "app/phases/journal/journaling_cluster.h"
#include "app/phases/journal/journaling_seams.h"
#include "app/util/host.h"
#include "app/util/node_lock.h"
#include "app/util/printer.h"

namespace kkadm::cmd {

class JournaledHost {
 public:
  // Takes the node's lock (another kkadm command changing it: FailedPrecondition), then reads the
  // journal of the node `host` reaches (an error when it cannot be read). `host` must outlive
  // the result, which holds the lock until it is destroyed.
  static Result<std::unique_ptr<JournaledHost>> Make(util::Host& host, util::Printer& printer,
                                                     const std::string& command, bool force);

  // The host phases are given: its file system and service manager tell the journal.
  util::Host& host() { return host_; }
  phases::journal::JournalObserver& observer() { return observer_; }
  // The journal as this run records it (what a phase made, for post-phase hooks).
  const phases::journal::Journal& journal() const { return journal_; }
  // `etcd` as phases are given it: the member it adds is recorded. Kept by this host.
  phases::EtcdJoiner& Recording(phases::EtcdJoiner& etcd);
  // What the journal records this command made on the node, as it still is (for pre-flight).
  phases::OwnWork RecordedWork() const;

  JournaledHost(util::Host& host, util::Printer& printer, phases::journal::RunIdentity identity,
                bool force);

 private:
  std::optional<util::NodeLock> lock_;
  util::FileSystem& node_;  // the node's file system, without journaling
  std::string command_;
  phases::journal::Journal journal_;
  phases::journal::JournalingFileSystem fs_;
  phases::journal::JournalingInitSystem init_;
  phases::journal::JournalingNetwork net_;
  std::unique_ptr<phases::journal::JournalingEtcdJoiner> etcd_;
  phases::journal::JournalObserver observer_;
  util::Host host_;
};

}  // namespace kkadm::cmd
