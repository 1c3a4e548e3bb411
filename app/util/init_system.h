// InitSystem: the service manager (systemd over sd-bus in production). Units are named in full
// ("kubelet.service"). The manager and the services it starts read the node's files themselves:
// a caller that wrote files they read calls FileSystem::Sync first, since a command's file
// system finishes writes behind (file_system_real.h).
#pragma once

#include <string>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

class InitSystem {
 public:
  virtual ~InitSystem() = default;
  virtual Status DaemonReload() = 0;
  virtual Status Start(const std::string& unit) = 0;
  virtual Status Stop(const std::string& unit) = 0;
  virtual Status Restart(const std::string& unit) = 0;
  // Enables the unit for boot, as `systemctl enable --no-reload`: the running manager sees the new
  // [Install] links at its next reload, which starting the unit does not need.
  virtual Status Enable(const std::string& unit) = 0;
  virtual Status Disable(const std::string& unit) = 0;
  // Reloads the manager unless its view of `unit` is current: loaded, from files none of which
  // changed since (systemd's NeedDaemonReload), `files` among them (node paths of the unit file
  // and drop-ins the caller just wrote: a drop-in new to a loaded unit is a change systemd does
  // not notice). A unit systemd has not loaded yet is read from disk as it is, so a first
  // kubelet-start needs no reload, which takes ~90 ms on a machine with Debian's units.
  virtual Status ReloadIfStale(const std::string& unit, const std::vector<std::string>& files) = 0;
  virtual Result<bool> Exists(const std::string& unit) = 0;
  virtual Result<bool> IsEnabled(const std::string& unit) = 0;
  virtual Result<bool> IsActive(const std::string& unit) = 0;
};

}  // namespace kkadm::util
