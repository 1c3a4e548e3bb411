// SystemdInitSystem: util::InitSystem over systemd's D-Bus API (org.freedesktop.systemd1), through
// libsystemd's sd-bus.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "app/util/init_system.h"

struct sd_bus;

namespace kkadm::util {

// Talks to the systemd that owns the system bus at `bus_address` ("" = the machine's system bus,
// which sd_bus_open_system finds, honouring DBUS_SYSTEM_BUS_ADDRESS). The connection is opened on
// the first call and kept; not thread-safe. Failures carry the D-Bus error name and message; a bus
// that cannot be reached is kUnavailable, a unit systemd does not know is kNotFound.
class SystemdInitSystem final : public InitSystem {
 public:
  // `job_timeout` bounds how long Start/Stop/Restart wait for systemd to finish the job.
  explicit SystemdInitSystem(std::string bus_address,
                             std::chrono::milliseconds job_timeout = std::chrono::seconds(90));
  ~SystemdInitSystem() override;
  SystemdInitSystem(const SystemdInitSystem&) = delete;
  SystemdInitSystem& operator=(const SystemdInitSystem&) = delete;

  // Manager.Reload: returns once systemd has re-read all unit files.
  Status DaemonReload() override;
  // StartUnit/StopUnit/RestartUnit in "replace" mode, then waits for the job's JobRemoved signal;
  // a job result other than "done" is kFailedPrecondition. Stop of a unit that is not loaded is
  // kNotFound ("Unit x.service not loaded.").
  Status Start(const std::string& unit) override;
  Status Stop(const std::string& unit) override;
  Status Restart(const std::string& unit) override;
  // EnableUnitFiles(runtime=false, force=true); DisableUnitFiles(runtime=false), then Reload.
  Status Enable(const std::string& unit) override;
  Status Disable(const std::string& unit) override;
  // LoadUnit; Reload when LoadState is not "loaded", NeedDaemonReload is true, or one of `files`
  // is neither the FragmentPath nor among the DropInPaths.
  Status ReloadIfStale(const std::string& unit, const std::vector<std::string>& files) override;
  // LoadUnit + LoadState != "not-found".
  Result<bool> Exists(const std::string& unit) override;
  // GetUnitFileState is one of the states `systemctl is-enabled` accepts; no unit file: false.
  Result<bool> IsEnabled(const std::string& unit) override;
  // ActiveState is "active" or "reloading"; a unit that is not loaded is not active.
  Result<bool> IsActive(const std::string& unit) override;

 private:
  Status Connect();
  Status CallSubscription(const char* method);  // "Subscribe" or "Unsubscribe"
  // Calls `method` (StartUnit...) on `unit` and waits for the job it queued to finish.
  Status WaitForNewJob(const char* method, const std::string& unit);
  Status RunJob(const char* method, const std::string& unit);
  Result<std::string> UnitPath(const char* method, const std::string& unit);
  // Why systemd's view of `unit` is out of date for ReloadIfStale; empty when it is current.
  Result<std::string> StaleReason(const std::string& unit, const std::vector<std::string>& files);
  Result<std::string> StringProperty(const std::string& path, const char* interface,
                                     const char* property);

  std::string address_;
  std::chrono::milliseconds job_timeout_;
  sd_bus* bus_ = nullptr;
};

// The production InitSystem: systemd at `bus_address`; when that is empty, at
// $KKADM_SYSTEM_BUS_ADDRESS; when that is unset too, the machine's system bus.
std::unique_ptr<InitSystem> NewSystemdInitSystem(std::string bus_address);

}  // namespace kkadm::util
