// JournaledHost: the journal, its seams and its observer, built over a command's host.
#include "cmd/journaled_host.h"

#include "app/phases/journal/drift.h"
#include "app/util/ascii.h"
#include "build_info.h"

namespace kkadm::cmd {

JournaledHost::JournaledHost(util::Host& host, util::Printer& printer,
                             phases::journal::RunIdentity identity, bool force)
    : node_(host.fs),
      command_(identity.command),
      journal_(host.fs, host.clock),
      fs_(host.fs, journal_),
      init_(host.init, journal_),
      net_(host.net, journal_),
      observer_(journal_, host.fs, printer, std::move(identity), force),
      host_{fs_, init_, host.clock, host.machine, host.mounter, host.remover, host.terminal, net_} {
}

Result<std::unique_ptr<JournaledHost>> JournaledHost::Make(util::Host& host, util::Printer& printer,
                                                           const std::string& command, bool force) {
  Result<util::NodeLock> lock = util::NodeLock::Acquire(host.fs.HostPath("/"));
  if (!lock) return lock.error();
  Result<std::string> boot_id = host.machine.ReadSystemFile("/proc/sys/kernel/random/boot_id");
  phases::journal::RunIdentity identity{command, build_info::kVersion,
                                        boot_id ? std::string(util::TrimSpace(*boot_id)) : ""};
  auto journaled = std::make_unique<JournaledHost>(host, printer, std::move(identity), force);
  journaled->lock_.emplace(std::move(*lock));
  KKADM_RETURN_IF_ERROR(journaled->journal_.Load());
  KKADM_RETURN_IF_ERROR(journaled->observer_.RecoverUnfinishedAttempts());
  return journaled;
}

phases::EtcdJoiner& JournaledHost::Recording(phases::EtcdJoiner& etcd) {
  etcd_ = std::make_unique<phases::journal::JournalingEtcdJoiner>(etcd, journal_);
  return *etcd_;
}

phases::OwnWork JournaledHost::RecordedWork() const {
  return phases::journal::RecordedWork(
      node_, journal_.state(),
      command_, [this](const phases::journal::PhaseRecord& record) -> const auto& {
        return observer_.Drift(record);
      });
}

}  // namespace kkadm::cmd
