// The `preflight` phase of `kkadm join`: node checks, discovery, the Node check, control-plane
// readiness, for join's configuration.
#include "app/phases/join/preflight_phase.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/phases/preflight/checks_files.h"
#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/control_plane_checks.h"
#include "app/phases/preflight/join_leftovers.h"
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
  Status s = preflight::RunChecks(checks, *data.host, data.ignore_preflight_errors, data.printer());
  if (!s.ok()) data.preflight_checks_failed = true;
  return s;
}

// A control-plane node's ca.crt is an input (copied, or downloaded with the certificate key), not a
// sign of an earlier join; admin.conf is one, written by control-plane-prepare.
JoinFilePaths FilePaths(const JoinData& data) {
  return JoinFilePaths{data.control_plane() ? std::string() : data.cfg.ca_cert_path,
                       data.kubelet_kubeconfig_path(), data.bootstrap_kubeconfig_path(),
                       data.control_plane() ? data.admin_kubeconfig_path() : std::string()};
}

// Runs the join node checks, leaving out those the leftovers of a resumed join would fail.
Status RunNodeChecks(JoinData& data, const JoinLeftovers& leftovers) {
  preflight::CheckList checks = JoinNodeChecks(data);
  if (leftovers.Resumable()) {
    std::vector<std::string> skipped = DropLeftoverChecks(checks);
    data.printer().Line(kPrefix,
                        fmt::format("Found files of an earlier join of this node ({}): "
                                    "resuming it; skipped checks: {}",
                                    fmt::join(leftovers.files, ", "), fmt::join(skipped, ", ")));
  }
  return RunChecksOf(data, checks);
}

Status RunControlPlaneChecks(JoinData& data, const JoinLeftovers& leftovers,
                             const JoinCluster& cluster) {
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
  if (leftovers.Resumable()) {
    data.printer().Line(kPrefix, fmt::format("Resuming the earlier join; skipped checks: {}",
                                             fmt::join(DropLeftoverChecks(checks), ", ")));
  }
  KKADM_RETURN_IF_ERROR(RunChecksOf(data, checks));
  // kkadm talks to no container runtime, so images are never pulled; dry-run keeps kubeadm's line.
  if (data.dry_run)
    data.printer().Line(kPrefix,
                        "Would pull the required images (like 'kubeadm config images pull')");
  return Status::Ok();
}

}  // namespace

preflight::CheckList JoinNodeChecks(const JoinData& data) {
  preflight::CheckList checks;
  checks.push_back(preflight::NewFileAvailableCheck(data.kubelet_kubeconfig_path()));
  checks.push_back(preflight::NewFileAvailableCheck(data.bootstrap_kubeconfig_path()));
  // kubeadm passes no Kubernetes version here: the cluster's is not known before discovery.
  preflight::AddCommonChecks(data.cfg.node_registration, "", checks);
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
  const JoinLeftovers leftovers = FindJoinLeftovers(data.fs(), FilePaths(data));
  KKADM_RETURN_IF_ERROR(RunNodeChecks(data, leftovers));
  auto cluster = data.access->Discovered();
  if (!cluster) return cluster.error();
  KKADM_RETURN_IF_ERROR(CheckLeftoversBelongToCluster(leftovers, (*cluster)->ca_pem));
  auto client = data.access->BootstrapClient();
  if (!client) return client.error();
  const std::string& name = data.cfg.node_registration.name;
  const bool is_this_node =
      leftovers.Resumable() && leftovers.kubelet_identity &&
      KubeconfigIdentifiesAs(data.fs(), data.kubelet_kubeconfig_path(), "system:node:" + name);
  KKADM_RETURN_IF_ERROR(CheckNodeNotReady(**client, name, is_this_node));
  if (!data.control_plane()) return Status::Ok();
  return RunControlPlaneChecks(data, leftovers, **cluster);
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
