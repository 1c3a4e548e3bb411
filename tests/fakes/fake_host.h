// FakeHostSeams: the seams of util::Host that a unit test does not exercise (mounts, tree removal,
// the terminal, the network), as fakes it may still configure, and Over() to bundle them with the
// FileSystem, InitSystem, Clock and Machine the test does care about.
#pragma once

#include <string>
#include <vector>

#include "app/util/host.h"
#include "tests/fakes/fake_mounter.h"
#include "tests/fakes/fake_network.h"
#include "tests/fakes/fake_terminal.h"

namespace kkadm::testing {

// Removes nothing and records what it was asked to remove.
class RecordingTreeRemover final : public util::TreeRemover {
 public:
  std::vector<std::string> asked;

  std::vector<util::RemovalFailure> CleanDirectory(const std::string& dir) override {
    return Ask(dir);
  }
  std::vector<util::RemovalFailure> RemovePath(const std::string& path) override {
    return Ask(path);
  }
  std::vector<util::RemovalFailure> CleanDirectories(
      const std::vector<std::string>& dirs) override {
    for (const std::string& dir : dirs) Ask(dir);
    return {};
  }
  std::vector<util::RemovalFailure> RemoveFiles(const std::vector<std::string>& paths) override {
    for (const std::string& path : paths) Ask(path);
    return {};
  }
  std::vector<util::RemovalFailure> CleanDirectoryOf(const std::string&,
                                                     const std::string& dir) override {
    return Ask(dir);
  }

 private:
  std::vector<util::RemovalFailure> Ask(const std::string& path) {
    asked.push_back(path);
    return {};
  }
};

struct FakeHostSeams {
  FakeMounter mounter;
  RecordingTreeRemover remover;
  FakeTerminal terminal;
  FakeNetwork network;

  util::Host Over(util::FileSystem& fs, util::InitSystem& init, util::Clock& clock,
                  util::Machine& machine) {
    return util::Host{fs, init, clock, machine, mounter, remover, terminal, network};
  }
};

}  // namespace kkadm::testing
