// DryRunInitSystem: an InitSystem for --dry-run that changes nothing and says what it would do.
#pragma once

#include <string>
#include <vector>

#include "app/util/init_system.h"
#include "app/util/printer.h"

namespace kkadm::util {

// Every change (reload, start, stop, restart, enable, disable) is recorded and printed as
// "[dryrun] Would start the kubelet service", and succeeds. Queries go to `real` when one is
// given (it is only asked, never changed); without one they fail kUnavailable, because the
// answer is unknown in a dry run.
class DryRunInitSystem final : public InitSystem {
 public:
  DryRunInitSystem(Printer& out, InitSystem* real) : out_(out), real_(real) {}

  Status DaemonReload() override;
  Status Start(const std::string& unit) override;
  Status Stop(const std::string& unit) override;
  Status Restart(const std::string& unit) override;
  Status Enable(const std::string& unit) override;
  Status Disable(const std::string& unit) override;
  Status ReloadIfStale(const std::string& unit, const std::vector<std::string>& files) override;
  Result<bool> Exists(const std::string& unit) override;
  Result<bool> IsEnabled(const std::string& unit) override;
  Result<bool> IsActive(const std::string& unit) override;

  // What would have been done, in order: "daemon-reload", "start kubelet.service", ...
  const std::vector<std::string>& actions() const { return actions_; }

 private:
  Status Record(const std::string& verb, const std::string& unit);
  Result<bool> Ask(const std::string& question, const std::string& unit);

  Printer& out_;
  InitSystem* real_;
  std::vector<std::string> actions_;
};

}  // namespace kkadm::util
