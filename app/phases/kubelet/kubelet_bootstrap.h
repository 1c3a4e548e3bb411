// kubelet-start of a joining node (kubeadm's phases/join/kubelet.go): hand the kubelet the TLS
// bootstrap identity, start it, and wait until it has its own credentials. Knows nothing of the
// workflow engine or of join's command data.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "app/phases/kubelet/kubelet_start.h"
#include "app/util/events.h"
#include "app/util/host.h"
#include "app/util/kubeconfig.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

// The kubelet's healthz URL from a KubeletConfiguration (healthzBindAddress, healthzPort;
// 127.0.0.1:10248 by default).
std::string KubeletHealthzUrl(const nlohmann::json& kubelet_config);

// What a joining node's kubelet bootstraps with, and what kkadm waits for afterwards.
struct KubeletBootstrap {
  util::Kubeconfig identity;         // the TLS bootstrap identity (cluster + token user)
  std::string ca_pem;                // the cluster CA, verified by discovery
  std::string ca_cert_path;          // JoinConfiguration.caCertPath
  std::string bootstrap_kubeconfig;  // <kubeconfig dir>/bootstrap-kubelet.conf
  std::string kubelet_kubeconfig;    // <kubeconfig dir>/kubelet.conf, written by the kubelet
  std::string healthz_url;           // KubeletHealthzUrl of the cluster's KubeletConfiguration
  std::string node_name;
  std::string cri_socket;
  std::chrono::milliseconds kubelet_health_check{};  // timeouts.kubeletHealthCheck
  std::chrono::milliseconds tls_bootstrap{};         // timeouts.tlsBootstrap
  std::chrono::milliseconds api_call{};              // timeouts.kubernetesAPICall
  util::Events events = {};                          // the waits, as events (docs/events.md)
};

// What kubelet-start waits for once the kubelet runs. The command builds one; the dry run's waits
// for nothing.
class KubeletBootstrapWaiter {
 public:
  virtual ~KubeletBootstrapWaiter() = default;
  // Waits for the kubelet's healthz (kubelet_health_check) and then, every 200 ms for at most
  // tls_bootstrap, for kubelet.conf to yield a client (the kubelet's TLS bootstrap is done);
  // annotates the Node with its CRI socket through that client. On a failed wait kubeadm's
  // troubleshooting text is printed. A dry run says "[kubelet-start] Would wait for the kubelet to
  // perform the TLS Bootstrap" and "... Would annotate the Node with its CRI socket".
  virtual Status WaitAndAnnotate(const KubeletBootstrap& in) = 0;
};

class RealKubeletBootstrapWaiter final : public KubeletBootstrapWaiter {
 public:
  RealKubeletBootstrapWaiter(util::Host& host, util::Printer& out) : host_(host), out_(out) {}
  Status WaitAndAnnotate(const KubeletBootstrap& in) override;

 private:
  util::Host& host_;
  util::Printer& out_;
};

class DryRunKubeletBootstrapWaiter final : public KubeletBootstrapWaiter {
 public:
  explicit DryRunKubeletBootstrapWaiter(util::Printer& out) : out_(out) {}
  Status WaitAndAnnotate(const KubeletBootstrap& in) override;

 private:
  util::Printer& out_;
};

// Writes bootstrap-kubelet.conf (0600) with the bootstrap identity and the CA at caCertPath (0644)
// when absent; stops the kubelet, writes its files (RunKubeletStart), starts it; then `waiter`
// waits for it and annotates the Node. bootstrap-kubelet.conf is removed at the end whatever
// happens. A kubeletconfiguration patch that does not apply is an error before any file is
// written.
Status BootstrapKubelet(util::Host& host, util::Printer& out, const KubeletStartInput& start,
                        const KubeletBootstrap& in, KubeletBootstrapWaiter& waiter);

}  // namespace kkadm::phases
