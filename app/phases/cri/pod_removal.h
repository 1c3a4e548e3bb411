// Reset's removal of Kubernetes' pods from the container runtime: kubeadm's rule is that every
// pod sandbox in the CRI is Kubernetes' (crictl pods; stopp; rmp), and removing a sandbox removes
// its containers. kkadm also stops and removes the containers of each sandbox first, each with
// a grace period, so that a runtime slow to kill them does not leave them behind silently.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/util/clock.h"
#include "app/util/container_runtime.h"
#include "app/util/printer.h"

namespace kkadm::phases::cri {

struct PodRemovalOptions {
  int attempts = 5;  // kubeadm's RemoveContainerRetry: tries per sandbox
  std::chrono::milliseconds retry_pause{std::chrono::milliseconds(500)};
  std::chrono::seconds stop_grace{std::chrono::seconds(10)};  // StopContainer's timeout
  // A dry run's runtime only says what it would do: nothing is checked afterwards.
  bool verify = true;
};

// A sandbox or container still there after its removal, and why.
struct NotRemoved {
  std::string what;  // "pod sandbox <id> (<namespace>/<name>)" or "container <id> (<name>)"
  std::string reason;
};

// Stops and removes every pod sandbox `cri` lists, and their containers, each sandbox tried up
// to `attempts` times; then lists again and returns what is still there (or the listing's error).
// Says "[reset] Removing N pod sandboxes (and their containers) from <endpoint>" and the
// outcome on `out`.
std::vector<NotRemoved> RemoveKubernetesPods(util::ContainerRuntime& cri, util::Clock& clock,
                                             util::Printer& out,
                                             const PodRemovalOptions& options = {});

}  // namespace kkadm::phases::cri
