// PreflightEnv: a Host for pre-flight tests: RealFileSystem on a fresh TempDir, FakeMachine,
// FakeInitSystem with an enabled kubelet, the real clock (never slept on).
#pragma once

#include <string>

#include "app/phases/preflight/check.h"
#include "app/util/clock.h"
#include "app/util/file_system_real.h"
#include "app/util/host.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::testing {

struct PreflightEnv {
  PreflightEnv() : fs(root.path()), host{seams.Over(fs, init, util::RealClock(), machine)} {
    init.units["kubelet.service"] = {.exists = true, .enabled = true, .active = false};
    // The container runtime's socket, where the CRI check looks: under the node root.
    machine.unix_sockets.insert(fs.HostPath("/var/run/containerd/containerd.sock"));
  }
  phases::preflight::CheckResult Run(const phases::preflight::Check& check) const {
    return check.Run(host);
  }

  TempDir root;
  util::RealFileSystem fs;
  FakeInitSystem init;
  FakeMachine machine;
  FakeHostSeams seams;
  util::Host host;
};

}  // namespace kkadm::testing
