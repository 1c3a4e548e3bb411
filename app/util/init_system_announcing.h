// AnnouncingInitSystem: an InitSystem that says each change before another one makes it
// ("[reset] Stopping the kubelet service"), for a command whose output shows them: reset. (A dry
// run's DryRunInitSystem says "Would stop ..." instead, and changes nothing.)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/util/init_system.h"
#include "app/util/printer.h"

namespace kkadm::util {

// "kubelet.service" -> "kubelet", the way kubeadm names services in its messages.
std::string ServiceName(const std::string& unit);

class AnnouncingInitSystem final : public InitSystem {
 public:
  // `inner` makes the changes and answers the questions; the lines go to `out` under `prefix`.
  AnnouncingInitSystem(InitSystem& inner, Printer& out, std::string prefix)
      : inner_(inner), out_(out), prefix_(std::move(prefix)) {}

  Status DaemonReload() override;
  Status Start(const std::string& unit) override;
  Status Stop(const std::string& unit) override;
  Status Restart(const std::string& unit) override;
  Status Enable(const std::string& unit) override;
  Status Disable(const std::string& unit) override;
  // Says nothing: whether it reloads anything is the inner one's decision.
  Status ReloadIfStale(const std::string& unit, const std::vector<std::string>& files) override {
    return inner_.ReloadIfStale(unit, files);
  }
  Result<bool> Exists(const std::string& unit) override { return inner_.Exists(unit); }
  Result<bool> IsEnabled(const std::string& unit) override { return inner_.IsEnabled(unit); }
  Result<bool> IsActive(const std::string& unit) override { return inner_.IsActive(unit); }

 private:
  void Say(const std::string& doing, const std::string& unit);

  InitSystem& inner_;
  Printer& out_;
  std::string prefix_;
};

}  // namespace kkadm::util
