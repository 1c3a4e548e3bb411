// InitPhasesTest: an InitData over a RealFileSystem rooted in a temporary directory, for tests
// that run init phases (their run functions, parents before children, as the runner does).
#pragma once

#include <gtest/gtest.h>

#include <sstream>

#include "app/phases/init/init_data.h"
#include "app/util/clock.h"
#include "app/util/file_system_real.h"
#include "app/util/init_system.h"
#include "app/workflow/phase.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/controlplane/pod_fixture.h"

namespace kkadm::testing {

// The phases under test never start services or wait; these seams only fill the Host.
class UnusedInitSystem final : public util::InitSystem {
 public:
  Status DaemonReload() override { return Internal("unused"); }
  Status Start(const std::string&) override { return Internal("unused"); }
  Status Stop(const std::string&) override { return Internal("unused"); }
  Status Restart(const std::string&) override { return Internal("unused"); }
  Status Enable(const std::string&) override { return Internal("unused"); }
  Status ReloadIfStale(const std::string&, const std::vector<std::string>&) override {
    return Internal("unused");
  }
  Status Disable(const std::string&) override { return Internal("unused"); }
  Result<bool> Exists(const std::string&) override { return Internal("unused"); }
  Result<bool> IsEnabled(const std::string&) override { return Internal("unused"); }
  Result<bool> IsActive(const std::string&) override { return Internal("unused"); }
};

class UnusedClock final : public util::Clock {
 public:
  TimePoint Now() const override { return TimePoint(); }
  void Sleep(std::chrono::milliseconds) override {}
};

class InitPhasesTest : public ::testing::Test {
 protected:
  InitPhasesTest() {
    data_.cfg = kkadm::testing::DefaultInitConfig();
    data_.host = &host_;
    data_.out = &printer_;
  }

  // Runs a phase's own run (if any) then each child's, as the runner does.
  Status RunTree(const workflow::Phase& phase) {
    if (phase.run) KKADM_RETURN_IF_ERROR(phase.run());
    for (const auto& child : phase.children) KKADM_RETURN_IF_ERROR(RunTree(child));
    return Status::Ok();
  }

  kkadm::testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  UnusedInitSystem init_;
  UnusedClock clock_;
  kkadm::testing::FakeMachine machine_;
  kkadm::testing::FakeHostSeams host_seams_;
  util::Host host_{host_seams_.Over(fs_, init_, clock_, machine_)};
  std::ostringstream out_;
  util::Printer printer_{out_};
  phases::InitData data_;
};

}  // namespace kkadm::testing
