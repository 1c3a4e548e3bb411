// RenewalRecorder: `kkadm certs renew` on a node with kkadm's journal records its run there
// (command "certs renew"), each renewed item as a phase "renew/<name>" with the files it replaced,
// so `kkadm status` shows the renewal. A node without a journal (built by kubeadm, or reset) gets
// none: reset would take a journal to be the whole of kkadm's work on the node and undo only that.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/phases/journal/journal.h"
#include "app/phases/journal/journaling_seams.h"
#include "app/util/host.h"
#include "app/util/node_lock.h"

namespace kkadm::cmd {

class RenewalRecorder {
 public:
  // nullptr when the node has no journal; else the node's lock is held (another kkadm command
  // changing the node: FailedPrecondition) and the journal is loaded.
  static Result<std::unique_ptr<RenewalRecorder>> Open(util::Host& host);
  RenewalRecorder(util::Host& host, util::NodeLock lock);

  // The node's files as renewals write them: each write is recorded for the current item.
  util::FileSystem& fs() { return fs_; }
  Status Begin(const std::string& item);
  // Records the item done (or failed) once its files are on disk.
  Status End(const Status& outcome);

 private:
  util::NodeLock lock_;
  phases::journal::Journal journal_;
  phases::journal::JournalingFileSystem fs_;
  bool begun_ = false;
  std::string boot_id_;
};

}  // namespace kkadm::cmd
