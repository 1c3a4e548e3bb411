// Restarting the control-plane static Pods that use renewed files (`certs renew
// --restart-control-plane`), kubeadm's documented way done for the user: each manifest is moved
// out of the manifest directory, the kubelet stops the Pod, the manifest is put back and the
// kubelet starts it again, one component at a time, each healthy before the next.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/phases/certs/renewal.h"
#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/network.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

// Where a manifest waits while its Pod is stopped: outside the kubelet's directory, under
// kubeadm's temporary directory (which reset removes).
inline constexpr char kRestartHoldingDir[] = "/etc/kubernetes/tmp/kkadm-restart";
inline constexpr char kRestartPrefix[] = "control-plane-restart";

// A static Pod to restart and how to tell it runs.
struct StaticPodComponent {
  std::string name;               // "kube-apiserver"
  std::string manifest;           // "/etc/kubernetes/manifests/kube-apiserver.yaml"
  std::string health_url;         // its livenessProbe's httpGet: "https://10.0.0.1:6443/livez"
  std::vector<std::string> uses;  // the renewed files its container's command or args name
};

// The node files a renewal of `item` replaced: a leaf's .crt and .key, or the kubeconfig file.
std::vector<std::string> RenewedFiles(const RenewalItem& item, const RenewalEnv& env);

// The URL the kubelet probes for the Pod's liveness (first container's livenessProbe.httpGet:
// scheme, host (127.0.0.1 when empty: these Pods use the host's network), numeric or named port,
// path). InvalidArgument when there is none to probe.
Result<std::string> LivenessUrl(const nlohmann::json& pod);

// Of etcd, kube-apiserver, kube-controller-manager and kube-scheduler, in that order (kubeadm
// upgrade's), those whose manifest in `manifest_dir` names one of `renewed` as a flag's value or
// an argument. An absent manifest is skipped (a worker, external etcd). admin.conf and
// super-admin.conf are named by none. A manifest that cannot be read or parsed, or lacks a
// liveness probe, is an error before anything is moved.
Result<std::vector<StaticPodComponent>> ComponentsUsing(const std::vector<std::string>& renewed,
                                                        const std::string& manifest_dir,
                                                        const util::FileSystem& fs);

// How a restart learns that the kubelet stopped a Pod and that it runs again. The command picks
// one: ProbingComponentWaiter, or for a dry run DryRunComponentWaiter, which says what it would
// wait for. Each prints its own progress lines.
class ComponentWaiter {
 public:
  virtual ~ComponentWaiter() = default;
  // Until nothing answers at the health URL any more (the kubelet stopped the Pod: the real
  // kubelet's mirror Pod or container state is not needed, and a port no process listens on is
  // what any kubelet leaves). Unavailable "... still answers ..." after `timeout`.
  virtual Status WaitStopped(const StaticPodComponent& component,
                             std::chrono::milliseconds timeout) = 0;
  // Until the health URL answers 200, the kubelet's and kubeadm's control-plane check.
  // Unavailable with the last probe's error after `timeout`.
  virtual Status WaitHealthy(const StaticPodComponent& component,
                             std::chrono::milliseconds timeout) = 0;
};

// Polls the health URL through the Network and the Clock (PollUntilHealthy, as init's
// wait-control-plane does). HTTPS is not verified, as the kubelet's probes: nothing is sent but
// the GET, and only the status is read.
std::unique_ptr<ComponentWaiter> NewProbingComponentWaiter(util::Network& net, util::Clock& clock,
                                                           util::Printer& out);
// Waits for nothing: "[dryrun] Would wait up to 4m0s for ...".
std::unique_ptr<ComponentWaiter> NewDryRunComponentWaiter(util::Printer& out);

struct RestartEnv {
  util::FileSystem& fs;
  ComponentWaiter& waiter;
  util::Printer& out;
  std::chrono::milliseconds timeout;  // each wait: controlPlaneComponentHealthCheck
  std::string manifest_dir = "/etc/kubernetes/manifests";
};

// Restarts the components one at a time: the renewed files made durable first, then for each its
// manifest moved to kRestartHoldingDir, WaitStopped, the manifest put back (the same bytes and
// mode, renamed into place), WaitHealthy. The first failure ends it with an error naming the
// component and the ones not restarted; the manifest is put back whatever happened.
Status RestartComponents(const std::vector<StaticPodComponent>& components, const RestartEnv& env);

// Puts back each manifest an interrupted restart left in kRestartHoldingDir, unless the manifest
// directory has one of that name again (then the held copy is stale and removed), saying so.
Status RestoreHeldManifests(util::FileSystem& fs, const std::string& manifest_dir,
                            util::Printer& out);

}  // namespace kkadm::phases::certs
