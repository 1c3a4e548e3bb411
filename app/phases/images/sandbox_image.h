// kubeadm's sandbox (pause) image check in its ImagePull pre-flight: the runtime runs every pod
// in a sandbox image of its own configuration (containerd: sandbox_image), which kubeadm cannot
// change; when it is not the pause image kubeadm pulled, kubeadm warns.
#pragma once

#include <optional>
#include <string>

#include "app/util/container_runtime.h"
#include "app/util/events.h"
#include "app/util/status.h"

namespace kkadm::phases::images {

// The sandbox image the runtime reports in its verbose Status info ("config", a JSON object, its
// "sandboxImage"), as kubeadm's SandboxImage reads it; nullopt when the runtime's information
// names none, an error when it cannot be asked or read.
Result<std::optional<std::string>> RuntimeSandboxImage(util::ContainerRuntime& runtime);

// kubeadm's warning (and a Warning event) when the runtime's sandbox image is not `pause_image`:
// "detected that the sandbox image "<runtime's>" of the container runtime is inconsistent with
// that used by kubeadm. It is recommended to use "<pause_image>" as the CRI sandbox image." One
// that cannot be read is only logged at -v 4, as kubeadm does.
void WarnOnSandboxImageMismatch(util::ContainerRuntime& runtime, const std::string& pause_image,
                                const util::Events& events);

}  // namespace kkadm::phases::images
