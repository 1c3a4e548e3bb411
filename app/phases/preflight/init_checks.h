// The pre-flight checks of `kkadm init` (kubeadm's InitNodeChecks for a first control-plane node).
#pragma once

#include "app/phases/init/init_data.h"
#include "app/phases/preflight/check.h"
#include "app/util/status.h"

namespace kkadm::phases::preflight {

// kubeadm's init check list, in kubeadm's order, for the validated config in `data`: machine size,
// versions, control-plane ports, manifest files, proxies, the common node checks (CRI, swap,
// binaries, hostname, kubelet service, kubelet port), IP forwarding, and the etcd checks. Not
// included: SystemVerification, KubeletVersion, ExternalEtcdVersion and ImagePull (no kernel
// validator, kubelet binary, etcd client or container runtime is used here).
CheckList InitNodeChecks(const InitData& data);

// The whole preflight phase: prints "[preflight] Running pre-flight checks", runs the root check
// alone (fail-fast), then InitNodeChecks; in dry-run prints that images would be pulled. Changes
// nothing on the host. FailedPrecondition when a check error is not ignored.
Status RunInitPreflight(InitData& data);

}  // namespace kkadm::phases::preflight
