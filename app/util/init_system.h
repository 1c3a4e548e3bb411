// InitSystem: the service manager (systemd over sd-bus in production). Units are named in full
// ("kubelet.service").
#pragma once

#include <string>

#include "app/util/status.h"

namespace kkadm::util {

class InitSystem {
 public:
  virtual ~InitSystem() = default;
  virtual Status DaemonReload() = 0;
  virtual Status Start(const std::string& unit) = 0;
  virtual Status Stop(const std::string& unit) = 0;
  virtual Status Restart(const std::string& unit) = 0;
  virtual Status Enable(const std::string& unit) = 0;
  virtual Status Disable(const std::string& unit) = 0;
  virtual Result<bool> Exists(const std::string& unit) = 0;
  virtual Result<bool> IsEnabled(const std::string& unit) = 0;
  virtual Result<bool> IsActive(const std::string& unit) = 0;
};

}  // namespace kkadm::util
