// Building an API client from a kubeconfig file on the node (read through the FileSystem, so
// --rootfs and dry-run apply).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/kube_client.h"

namespace kkadm::cmd {

// A RealKubeClient for the kubeconfig's current context; certificate and key files the kubeconfig
// names are read through `fs`. InvalidArgument naming the file when it cannot be read or parsed.
// API calls are retried for `api_timeout` (kubeadm's kubernetesAPICall); each request, connection
// included, gives up after `request_timeout`.
Result<std::unique_ptr<util::KubeClient>> NewKubeClientFromKubeconfig(
    const util::FileSystem& fs, const std::string& path, util::Clock& clock,
    std::chrono::milliseconds api_timeout,
    std::chrono::milliseconds request_timeout = std::chrono::seconds(10));

}  // namespace kkadm::cmd
