// The `preflight` phase of `kkadm join`: node checks, discovery, the Node check, control-plane
// readiness, for join's configuration.
#include "app/phases/join/preflight_phase.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/phases/images/image_pull_check.h"
#include "app/phases/preflight/checks_files.h"
#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/control_plane_checks.h"
#include "app/phases/preflight/run_checks.h"

namespace kkadm::phases {
namespace {

constexpr const char* kPrefix = "preflight";

constexpr const char* kNotReadyForControlPlane =
    "\nOne or more conditions for hosting a new control plane instance is not satisfied.\n\n{}\n\n"
    "Please ensure that:\n"
    "* The cluster has a stable controlPlaneEndpoint address.\n"
    "* The certificates that must be shared among control plane instances are provided.\n\n";

Status RunChecksOf(JoinData& data, const preflight::CheckList& checks) {
  Status s = preflight::RunChecks(checks, *data.host, data.ignore_preflight_errors, data.printer(),
                                  data.events);
  if (!s.ok()) data.preflight_checks_failed = true;
  return s;
}

// Where kkadm's own earlier work on this node shows in join's checks (its journal's record).
preflight::OwnWorkPlaces OwnWorkPlacesOf(const JoinData& data) {
  preflight::OwnWorkPlaces places;
  places.manifest_dir = data.manifest_dir;
  places.kubelet_kubeconfig = data.kubelet_kubeconfig_path();
  if (data.cfg.control_plane)
    places.apiserver_port = data.cfg.control_plane->local_api_endpoint.bind_port;
  return places;
}

// Runs the join node checks, leaving out those only kkadm's own earlier work fails.
Status RunNodeChecks(JoinData& data) {
  preflight::CheckList checks = JoinNodeChecks(data);
  preflight::LeaveOutChecksOfOwnWork(checks, data.own_work, OwnWorkPlacesOf(data), data.printer());
  return RunChecksOf(data, checks);
}

Status RunControlPlaneChecks(JoinData& data, const JoinCluster& cluster) {
  const bool has_key = !data.certificate_key().empty();
  Status ready = CheckReadyForControlPlane(cluster.init_cfg.cluster, has_key, data.fs());
  if (!ready.ok()) {
    data.printer().Raw(fmt::format(kNotReadyForControlPlane, ready.message()));
    return ready;
  }
  data.printer().Line(
      kPrefix, "Running pre-flight checks before initializing the new control plane instance");
  preflight::NodeCheckOptions options;
  options.manifest_dir = data.manifest_dir;
  options.secondary_control_plane = true;
  options.download_certs = has_key;
  preflight::CheckList checks = preflight::InitNodeChecks(cluster.init_cfg, options);
  preflight::LeaveOutChecksOfOwnWork(checks, data.own_work, OwnWorkPlacesOf(data), data.printer());
  KKADM_RETURN_IF_ERROR(RunChecksOf(data, checks));
  // As kubeadm: the joining node's registration (socket, pull policy), the cluster's images.
  images::ImagePullCheckInput pull =
      images::ImagePullInputFor(data.cfg.node_registration, cluster.init_cfg.cluster, data.events);
  Status pulled = images::RunPullImagesCheck(*data.host, pull, data.dry_run,
                                             data.ignore_preflight_errors, data.printer());
  if (!pulled.ok()) data.preflight_checks_failed = true;
  return pulled;
}

}  // namespace

preflight::CheckList JoinNodeChecks(const JoinData& data) {
  preflight::CheckList checks;
  checks.push_back(preflight::NewFileAvailableCheck(data.kubelet_kubeconfig_path()));
  checks.push_back(preflight::NewFileAvailableCheck(data.bootstrap_kubeconfig_path()));
  // kubeadm passes no Kubernetes version here: the cluster's is not known before discovery.
  preflight::CriCheckOptions cri;
  cri.out = data.out;
  cri.socket_wait = preflight::CriSocketWait(data.cri_socket_wait, data.ignore_preflight_errors);
  // The cluster's KubeletConfiguration is not known before discovery: only the user's is compared.
  cri.kubelet_cgroup_driver =
      preflight::KubeletCgroupDriver(data.cfg.component_configs.kubelet, "");
  preflight::AddCommonChecks(data.cfg.node_registration, "", checks, cri);
  if (!data.control_plane())
    checks.push_back(preflight::NewFileAvailableCheck(data.cfg.ca_cert_path));
  if (data.cfg.discovery.bootstrap_token) {
    AddJoinEndpointChecks(data.cfg.discovery.bootstrap_token->api_server_endpoint, checks);
  }
  return checks;
}

Status RunJoinPreflight(JoinData& data) {
  data.printer().Line(kPrefix, "Running pre-flight checks");
  preflight::CheckList root;
  root.push_back(preflight::NewIsPrivilegedUserCheck());
  KKADM_RETURN_IF_ERROR(RunChecksOf(data, root));
  KKADM_RETURN_IF_ERROR(RunNodeChecks(data));
  auto cluster = data.access->Discovered();
  if (!cluster) return cluster.error();
  auto client = data.access->BootstrapClient();
  if (!client) return client.error();
  const std::string& name = data.cfg.node_registration.name;
  // A Ready Node of this name is this node's when the kubelet kkadm started here holds its
  // identity in this cluster: a join run again.
  const bool is_this_node = data.own_work.HasUnit("kubelet.service") &&
                            KubeconfigIsUserOf(data.fs(), data.kubelet_kubeconfig_path(),
                                               "system:node:" + name, (*cluster)->ca_pem);
  KKADM_RETURN_IF_ERROR(CheckNodeNotReady(**client, name, is_this_node));
  if (!data.control_plane()) return Status::Ok();
  return RunControlPlaneChecks(data, **cluster);
}

workflow::Phase NewJoinPreflightPhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "preflight";
  phase.args_usage = "[api-server-endpoint]";
  phase.description = "Run join pre-flight checks";
  phase.long_description = "Run pre-flight checks for kkadm join.";
  phase.example =
      "  # Run join pre-flight checks using a config file.\n"
      "  kkadm join phase preflight --config kubeadm-config.yaml";
  phase.run = [&data] { return RunJoinPreflight(data); };
  phase.inherit_flags = {"api-server-endpoint",
                         "config",
                         "ignore-preflight-errors",
                         "tls-bootstrap-token",
                         "token",
                         "control-plane",
                         "apiserver-advertise-address",
                         "apiserver-bind-port",
                         "cri-socket",
                         "cri-socket-wait",
                         "node-name",
                         "discovery-file",
                         "discovery-token",
                         "discovery-token-ca-cert-hash",
                         "discovery-token-unsafe-skip-ca-verification",
                         "certificate-key",
                         "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
