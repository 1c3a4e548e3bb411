// DryRunInitSystem: records and prints service changes instead of making them.
#include "app/util/init_system_dry_run.h"

#include <fmt/format.h>

#include "app/util/init_system_announcing.h"

namespace kkadm::util {

Status DryRunInitSystem::Record(const std::string& verb, const std::string& unit) {
  actions_.push_back(verb + " " + unit);
  out_.Line("dryrun", fmt::format("Would {} the {} service", verb, ServiceName(unit)));
  return Status();
}

Status DryRunInitSystem::DaemonReload() {
  actions_.push_back("daemon-reload");
  out_.Line("dryrun", "Would reload the systemd manager configuration");
  return Status();
}

Status DryRunInitSystem::Start(const std::string& unit) { return Record("start", unit); }
Status DryRunInitSystem::Stop(const std::string& unit) { return Record("stop", unit); }
Status DryRunInitSystem::Restart(const std::string& unit) { return Record("restart", unit); }
Status DryRunInitSystem::Enable(const std::string& unit) { return Record("enable", unit); }
Status DryRunInitSystem::Disable(const std::string& unit) { return Record("disable", unit); }

Status DryRunInitSystem::ReloadIfStale(const std::string& unit,
                                       const std::vector<std::string>& /*files*/) {
  actions_.push_back("reload-if-stale " + unit);
  out_.Line("dryrun", fmt::format("Would reload the systemd manager configuration if its {} unit "
                                  "is out of date",
                                  ServiceName(unit)));
  return Status();
}

Result<bool> DryRunInitSystem::Ask(const std::string& question, const std::string& unit) {
  return Unavailable(
      fmt::format("dry run: whether {} {} is unknown without a service manager", unit, question));
}

Result<bool> DryRunInitSystem::Exists(const std::string& unit) {
  return real_ != nullptr ? real_->Exists(unit) : Ask("exists", unit);
}

Result<bool> DryRunInitSystem::IsEnabled(const std::string& unit) {
  return real_ != nullptr ? real_->IsEnabled(unit) : Ask("is enabled", unit);
}

Result<bool> DryRunInitSystem::IsActive(const std::string& unit) {
  return real_ != nullptr ? real_->IsActive(unit) : Ask("is active", unit);
}

}  // namespace kkadm::util
