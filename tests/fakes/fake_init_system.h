// FakeInitSystem: an InitSystem over a map of units a test sets, recording every call.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "app/util/init_system.h"

namespace kkadm::testing {

class FakeInitSystem final : public util::InitSystem {
 public:
  struct Unit {
    bool exists = true;
    bool enabled = false;
    bool active = false;
  };
  // Units not in the map do not exist.
  std::map<std::string, Unit> units;
  // When set, every call fails with Unavailable (no systemd to talk to).
  bool unreachable = false;
  // "Start kubelet.service", "Exists firewalld.service", "DaemonReload", ... in call order.
  std::vector<std::string> calls;

  Status DaemonReload() override {
    calls.push_back("DaemonReload");
    return Reachable();
  }
  Status Start(const std::string& unit) override { return Change("Start", unit, nullptr, true); }
  Status Stop(const std::string& unit) override { return Change("Stop", unit, nullptr, false); }
  Status Restart(const std::string& unit) override {
    return Change("Restart", unit, nullptr, true);
  }
  Status Enable(const std::string& unit) override {
    return Change("Enable", unit, &Unit::enabled, true);
  }
  Status Disable(const std::string& unit) override {
    return Change("Disable", unit, &Unit::enabled, false);
  }
  Status ReloadIfStale(const std::string& unit, const std::vector<std::string>&) override {
    calls.push_back("ReloadIfStale " + unit);
    return Reachable();
  }
  Result<bool> Exists(const std::string& unit) override {
    return Query("Exists", unit, &Unit::exists);
  }
  Result<bool> IsEnabled(const std::string& unit) override {
    return Query("IsEnabled", unit, &Unit::enabled);
  }
  Result<bool> IsActive(const std::string& unit) override {
    return Query("IsActive", unit, &Unit::active);
  }

 private:
  Status Reachable() const {
    if (unreachable)
      return Unavailable("failed to connect to the system bus: No such file or directory");
    return Status();
  }
  // Start/Stop/Restart set `active`; Enable/Disable set the given field.
  Status Change(const char* verb, const std::string& unit, bool Unit::*field, bool value) {
    calls.push_back(std::string(verb) + " " + unit);
    KKADM_RETURN_IF_ERROR(Reachable());
    auto it = units.find(unit);
    if (it == units.end() || !it->second.exists) return NotFound("Unit " + unit + " not found.");
    it->second.*(field != nullptr ? field : &Unit::active) = value;
    return Status();
  }
  Result<bool> Query(const char* verb, const std::string& unit, bool Unit::*field) {
    calls.push_back(std::string(verb) + " " + unit);
    if (Status s = Reachable(); !s.ok()) return s;
    auto it = units.find(unit);
    if (it == units.end()) return false;
    return it->second.*field;
  }
};

}  // namespace kkadm::testing
