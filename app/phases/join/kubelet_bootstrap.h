// kubelet-start of `kkadm join` (kubeadm's phases/join/kubelet.go): hand the kubelet the TLS
// bootstrap identity, start it, and wait until it has its own credentials. Knows nothing of the
// workflow engine.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/phases/join/join_data.h"
#include "app/phases/kubelet/kubelet_start.h"
#include "app/util/status.h"

namespace kkadm::phases {

// The kubelet's healthz URL from a KubeletConfiguration (healthzBindAddress, healthzPort;
// 127.0.0.1:10248 by default).
std::string KubeletHealthzUrl(const nlohmann::json& kubelet_config);

// What kubelet-start writes for this node of `cluster`: the cluster's KubeletConfiguration, this
// node's registration (workers with their taints), the command's patches.
KubeletStartInput JoinKubeletStartInput(const JoinData& data, const JoinCluster& cluster);

// Writes <kubeconfig_dir>/bootstrap-kubelet.conf (0600) with the TLS bootstrap identity and
// caCertPath (0644) when absent; stops the kubelet, writes config.yaml (the cluster's
// KubeletConfiguration) and kubeadm-flags.env (--register-with-taints for workers) and the unit
// files, starts the kubelet; waits for its healthz (timeouts.kubeletHealthCheck) and then, every
// 200 ms for at most timeouts.tlsBootstrap, for kubelet.conf to yield a client (the kubelet's TLS
// bootstrap is done); annotates the Node with its CRI socket through that client.
// bootstrap-kubelet.conf is removed at the end whatever happens. A kubeletconfiguration patch
// that does not apply is an error before any file is written. Dry-run: the files go to the
// dry-run directory, systemd calls and the waiting are only printed. On a failed wait kubeadm's
// troubleshooting text is printed.
Status RunJoinKubeletStart(JoinData& data);

}  // namespace kkadm::phases
