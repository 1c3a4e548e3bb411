// kubelet-start of `kkadm join` (kubeadm's phases/join/kubelet.go): hand the kubelet the TLS
// bootstrap identity, start it, and wait until it has its own credentials. Knows nothing of the
// workflow engine.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

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
// files, starts the kubelet; then data.kubelet_bootstrap waits for it and annotates the Node.
// bootstrap-kubelet.conf is removed at the end whatever happens. A kubeletconfiguration patch
// that does not apply is an error before any file is written. In a dry run the files go to the
// dry-run directory and the dry-run seams say what they would do.
Status RunJoinKubeletStart(JoinData& data);

// The kubelet-bootstrap waiter: what kubelet-start waits for once the kubelet runs (kubeadm's
// join kubelet.go). The command builds one; the dry run's waits for nothing.
class KubeletBootstrapWaiter {
 public:
  virtual ~KubeletBootstrapWaiter() = default;
  // Waits for the kubelet's healthz (timeouts.kubeletHealthCheck) and then, every 200 ms for at
  // most timeouts.tlsBootstrap, for kubelet.conf to yield a client (the kubelet's TLS bootstrap is
  // done); annotates the Node with its CRI socket through that client. On a failed wait kubeadm's
  // troubleshooting text is printed. A dry run says "[kubelet-start] Would wait for the kubelet to
  // perform the TLS Bootstrap" and "... Would annotate the Node with its CRI socket".
  virtual Status WaitAndAnnotate(const JoinCluster& cluster) = 0;
};

class RealKubeletBootstrapWaiter final : public KubeletBootstrapWaiter {
 public:
  explicit RealKubeletBootstrapWaiter(JoinData& data) : data_(data) {}
  Status WaitAndAnnotate(const JoinCluster& cluster) override;

 private:
  JoinData& data_;
};

class DryRunKubeletBootstrapWaiter final : public KubeletBootstrapWaiter {
 public:
  explicit DryRunKubeletBootstrapWaiter(util::Printer& out) : out_(out) {}
  Status WaitAndAnnotate(const JoinCluster& cluster) override;

 private:
  util::Printer& out_;
};

}  // namespace kkadm::phases
