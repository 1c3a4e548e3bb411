// RenewalRecorder over the journal's public API (Journal, JournalingFileSystem).
#include "cmd/certs_journal.h"

#include "app/util/ascii.h"
#include "build_info.h"

namespace kkadm::cmd {

namespace journal = phases::journal;

Result<std::unique_ptr<RenewalRecorder>> RenewalRecorder::Open(util::Host& host) {
  if (!host.fs.Exists(journal::kJournalPath)) return std::unique_ptr<RenewalRecorder>();
  Result<util::NodeLock> lock = util::NodeLock::Acquire(host.fs.HostPath("/"));
  if (!lock) return lock.error();
  auto recorder = std::make_unique<RenewalRecorder>(host, std::move(*lock));
  KKADM_RETURN_IF_ERROR(recorder->journal_.Load());
  Result<std::string> boot_id = host.machine.ReadSystemFile("/proc/sys/kernel/random/boot_id");
  if (boot_id) recorder->boot_id_ = std::string(util::TrimSpace(*boot_id));
  return recorder;
}

RenewalRecorder::RenewalRecorder(util::Host& host, util::NodeLock lock)
    : lock_(std::move(lock)), journal_(host.fs, host.clock), fs_(host.fs, journal_) {}

Status RenewalRecorder::Begin(const std::string& item) {
  if (!begun_) {
    KKADM_RETURN_IF_ERROR(journal_.BeginRun("certs renew", build_info::kVersion, boot_id_));
    begun_ = true;
  }
  return journal_.PhaseStarted("renew/" + item, "", {});
}

Status RenewalRecorder::End(const Status& outcome) {
  journal_.PhaseEnded(outcome.ok() ? journal::PhaseState::kDone : journal::PhaseState::kFailed,
                      outcome.ok() ? "" : outcome.message());
  Status flushed = journal_.Flush();
  return outcome.ok() ? flushed : outcome;
}

}  // namespace kkadm::cmd
