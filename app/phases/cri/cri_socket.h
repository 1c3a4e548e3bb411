// Which container runtime a node has: kubeadm's CRI socket detection, and a client for it.
#pragma once

#include <memory>
#include <string>

#include "app/config/defaults.h"
#include "app/util/container_runtime.h"
#include "app/util/host.h"
#include "app/util/machine.h"

namespace kkadm::phases::cri {

// The runtimes kubeadm knows, in its order.
inline constexpr const char* kKnownCriSockets[] = {
    "unix:///var/run/containerd/containerd.sock",
    "unix:///var/run/crio/crio.sock",
    "unix:///var/run/cri-dockerd.sock",
};

// kubeadm's DetectCRISocket on the node (under --rootfs): the one known socket that exists;
// containerd's when none does; InvalidArgument naming them when several do.
Result<std::string> DetectCriSocket(const util::Host& host);
// The same for the node at `rootfs` ("" or "/" for this machine's own root) before the host's
// seams exist: what the configuration defaults nodeRegistration.criSocket to (init, join,
// reset, config images pull), paths resolved inside the root as the node's files are.
Result<std::string> DetectCriSocket(const util::Machine& machine, const std::string& rootfs);
// That detection as the configuration takes it (config::Make*Configuration); `machine` and
// `rootfs` must outlive it.
config::CriSocketDetector NodeCriSocketDetector(const util::Machine& machine,
                                                const std::string& rootfs);

// `endpoint`, or when it is empty the detected one.
Result<std::string> CriSocketOrDetected(const util::Host& host, const std::string& endpoint);

// A client for `endpoint` whose socket is looked up under the node root (--rootfs).
Result<std::unique_ptr<util::ContainerRuntime>> ConnectCri(const util::Host& host,
                                                           const std::string& endpoint);

}  // namespace kkadm::phases::cri
