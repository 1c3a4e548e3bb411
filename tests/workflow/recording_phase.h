// Synthetic phases for the engine's tests: each records its path in a shared log when it runs, as
// kubeadm's runner_test.go does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/workflow/phase.h"

namespace kkadm::workflow::testing {

using Log = std::vector<std::string>;

// A phase named after the last element of `path` whose run appends `path` to `log`.
inline Phase P(std::shared_ptr<Log> log, const std::string& path, std::vector<Phase> children = {},
               std::vector<std::string> dependencies = {}) {
  Phase phase;
  phase.name = path.substr(path.rfind('/') + 1);
  phase.description = "Run " + path;
  phase.children = std::move(children);
  phase.dependencies = std::move(dependencies);
  phase.run = [log, path] {
    log->push_back(path);
    return Status::Ok();
  };
  return phase;
}

}  // namespace kkadm::workflow::testing
