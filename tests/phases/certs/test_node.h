// TestNode: an InitData over a temporary --rootfs (RealFileSystem), a fixed clock and a captured
// Printer, for the certs and kubeconfig work and phase tests.
#pragma once

#include <chrono>
#include <sstream>
#include <string>

#include "app/phases/init/init_data.h"
#include "app/util/file_system_real.h"
#include "app/util/init_system.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::testing {

class FixedClock final : public util::Clock {
 public:
  explicit FixedClock(TimePoint now) : now_(now) {}
  TimePoint Now() const override { return now_; }
  void Sleep(std::chrono::milliseconds d) override { now_ += d; }
  void Set(TimePoint now) { now_ = now; }

 private:
  TimePoint now_;
};

// The certs and kubeconfig work never touches services; any call is a test failure.
class NoInitSystem final : public util::InitSystem {
 public:
  Status DaemonReload() override { return Internal("unexpected"); }
  Status Start(const std::string&) override { return Internal("unexpected"); }
  Status Stop(const std::string&) override { return Internal("unexpected"); }
  Status Restart(const std::string&) override { return Internal("unexpected"); }
  Status Enable(const std::string&) override { return Internal("unexpected"); }
  Status ReloadIfStale(const std::string&, const std::vector<std::string>&) override {
    return Internal("unexpected");
  }
  Status Disable(const std::string&) override { return Internal("unexpected"); }
  Result<bool> Exists(const std::string&) override { return Internal("unexpected"); }
  Result<bool> IsEnabled(const std::string&) override { return Internal("unexpected"); }
  Result<bool> IsActive(const std::string&) override { return Internal("unexpected"); }
};

// Now, to the second: certificates store whole seconds.
inline util::Clock::TimePoint NowSeconds() {
  return std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
}

struct TestNode {
  TempDir root;
  util::RealFileSystem fs{root.path()};
  NoInitSystem init;
  FixedClock clock{NowSeconds()};
  FakeMachine machine;
  kkadm::testing::FakeHostSeams host_seams_;
  util::Host host{host_seams_.Over(fs, init, clock, machine)};
  std::ostringstream output;
  util::Printer printer{output};
  phases::InitData data;

  explicit TestNode(
      config::EncryptionAlgorithm algorithm = config::EncryptionAlgorithm::kEcdsaP256) {
    data.host = &host;
    data.out = &printer;
    data.cfg.node_registration.name = "node-1";
    data.cfg.local_api_endpoint.advertise_address = "192.0.2.10";
    data.cfg.cluster.etcd.local.emplace();
    data.cfg.cluster.encryption_algorithm = algorithm;
  }

  // The printed lines so far, then forgets them.
  std::string TakeOutput() {
    std::string s = output.str();
    output.str("");
    return s;
  }
  std::string Read(const std::string& node_path) {
    return fs.ReadFile(node_path).value_or(std::string());
  }
  std::string HostPath(const std::string& node_path) { return fs.HostPath(node_path); }
};

}  // namespace kkadm::testing
