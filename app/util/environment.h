// The environment variables of the kkadm process, as name/value pairs (the static Pods inherit
// its *_proxy variables, as kubeadm's do).
#pragma once

#include <vector>

#include "app/util/pod_spec.h"

namespace kkadm::util {

// Every NAME=value entry of this process's environment, in environ order.
std::vector<EnvVar> ProcessEnvironment();

}  // namespace kkadm::util
