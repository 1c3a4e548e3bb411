// RecordingInitSystem: an InitSystem that records each call ("stop kubelet.service",
// "daemon-reload") and answers from plain fields a test sets.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/util/init_system.h"

namespace kkadm::testing {

class RecordingInitSystem final : public util::InitSystem {
 public:
  std::vector<std::string> calls;
  // A call whose verb ("stop", "start", "daemon-reload", ...) is here returns that Status.
  std::map<std::string, Status> fail;
  std::set<std::string> loaded;  // units Exists() reports
  std::set<std::string> enabled;
  std::set<std::string> active;

  Status DaemonReload() override { return Record("daemon-reload", ""); }
  Status Start(const std::string& unit) override {
    Status s = Record("start", unit);
    if (s.ok()) active.insert(unit);
    return s;
  }
  Status Stop(const std::string& unit) override {
    Status s = Record("stop", unit);
    if (s.ok()) active.erase(unit);
    return s;
  }
  Status Restart(const std::string& unit) override {
    Status s = Record("restart", unit);
    if (s.ok()) active.insert(unit);
    return s;
  }
  Status Enable(const std::string& unit) override {
    Status s = Record("enable", unit);
    if (s.ok()) enabled.insert(unit);
    return s;
  }
  Status Disable(const std::string& unit) override {
    Status s = Record("disable", unit);
    if (s.ok()) enabled.erase(unit);
    return s;
  }
  Status ReloadIfStale(const std::string& unit, const std::vector<std::string>&) override {
    return Record("reload-if-stale", unit);
  }
  Result<bool> Exists(const std::string& unit) override { return loaded.count(unit) > 0; }
  Result<bool> IsEnabled(const std::string& unit) override { return enabled.count(unit) > 0; }
  Result<bool> IsActive(const std::string& unit) override { return active.count(unit) > 0; }

 private:
  Status Record(const std::string& verb, const std::string& unit) {
    calls.push_back(unit.empty() ? verb : verb + " " + unit);
    auto it = fail.find(verb);
    return it == fail.end() ? Status() : it->second;
  }
};

}  // namespace kkadm::testing
