// `kkadm join` preflight: node checks, discovery, the Node check, control-plane readiness.
#include "app/phases/join/join_preflight.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/phases/preflight/checks_files.h"
#include "app/phases/preflight/checks_proxy.h"
#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/init_checks.h"
#include "app/phases/preflight/run_checks.h"
#include "app/util/net_rules.h"

namespace kkadm::phases {
namespace {

constexpr const char* kPrefix = "preflight";

constexpr const char* kNotReadyForControlPlane =
    "\nOne or more conditions for hosting a new control plane instance is not satisfied.\n\n{}\n\n"
    "Please ensure that:\n"
    "* The cluster has a stable controlPlaneEndpoint address.\n"
    "* The certificates that must be shared among control plane instances are provided.\n\n";

void AddEndpointChecks(const std::string& endpoint, preflight::CheckList& checks) {
  auto hostport = util::ParseHostPort(endpoint);
  if (!hostport) return;
  checks.push_back(preflight::NewHttpProxyCheck(hostport->host));
  unsigned char buf[16];
  if (::inet_pton(AF_INET, hostport->host.c_str(), buf) == 1) {
    checks.push_back(preflight::NewFileContentCheck("/proc/sys/net/ipv4/ip_forward", "1"));
  } else if (::inet_pton(AF_INET6, hostport->host.c_str(), buf) == 1) {
    checks.push_back(
        preflight::NewFileContentCheck("/proc/sys/net/ipv6/conf/default/forwarding", "1"));
  }
}

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

Status CheckLeftoversBelongToCluster(const JoinLeftovers& leftovers, const JoinCluster& cluster) {
  if (!leftovers.Resumable() || leftovers.ca_pem == TrimmedPem(cluster.ca_pem)) return Status::Ok();
  return FailedPrecondition(fmt::format(
      "this node holds files of another cluster ({} trust a CA that is not this cluster's); run "
      "\"kkadm reset\" on this node first",
      fmt::join(leftovers.files, ", ")));
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
    AddEndpointChecks(data.cfg.discovery.bootstrap_token->api_server_endpoint, checks);
  }
  return checks;
}

std::vector<std::string> DropLeftoverChecks(preflight::CheckList& checks) {
  std::vector<std::string> dropped;
  preflight::CheckList kept;
  for (auto& check : checks) {
    const std::string name = check->Name();
    if (name.rfind("FileAvailable-", 0) == 0 || name.rfind("DirAvailable-", 0) == 0 ||
        name.rfind("Port-", 0) == 0) {
      dropped.push_back(name);
    } else {
      kept.push_back(std::move(check));
    }
  }
  checks = std::move(kept);
  return dropped;
}

Status CheckReadyForControlPlane(const config::ClusterConfiguration& cluster,
                                 bool has_certificate_key, const util::FileSystem& fs) {
  if (cluster.control_plane_endpoint.empty()) {
    return FailedPrecondition(
        "unable to add a new control plane instance a cluster that doesn't have a stable "
        "controlPlaneEndpoint address");
  }
  if (has_certificate_key) return Status::Ok();
  std::vector<std::string> shared = {
      "ca.crt", "ca.key", "sa.key", "sa.pub", "front-proxy-ca.crt", "front-proxy-ca.key"};
  if (cluster.etcd.local) shared.insert(shared.end(), {"etcd/ca.crt", "etcd/ca.key"});
  std::vector<std::string> missing;
  for (const std::string& file : shared) {
    const std::string path = cluster.certificates_dir + "/" + file;
    if (!fs.Exists(path)) missing.push_back(path);
  }
  if (missing.empty()) return Status::Ok();
  return FailedPrecondition(fmt::format(
      "the certificates that must be shared among control plane instances are missing: {} (copy "
      "them from a control-plane node, or join with --certificate-key)",
      fmt::join(missing, ", ")));
}

Status CheckNodeNotReady(util::KubeClient& client, const std::string& name, bool is_this_node) {
  auto node = client.Get("/api/v1/nodes/" + name);
  if (!node && node.error().code() == StatusCode::kNotFound) return Status::Ok();
  if (!node) return node.error().Wrap("cannot get Node \"" + name + "\"");
  const nlohmann::json conditions =
      node->value("status", nlohmann::json::object()).value("conditions", nlohmann::json::array());
  for (const auto& condition : conditions) {
    if (condition.value("type", "") != "Ready" || condition.value("status", "") != "True") continue;
    if (is_this_node) return Status::Ok();
    return FailedPrecondition(
        fmt::format("a Node with name \"{}\" and status \"Ready\" already exists in the cluster. "
                    "You must delete "
                    "the existing Node or change the name of this new joining Node",
                    name));
  }
  return Status::Ok();
}

Status RunJoinPreflight(JoinData& data) {
  data.printer().Line(kPrefix, "Running pre-flight checks");
  preflight::CheckList root;
  root.push_back(preflight::NewIsPrivilegedUserCheck());
  KKADM_RETURN_IF_ERROR(RunChecksOf(data, root));
  const JoinLeftovers leftovers = FindJoinLeftovers(data.fs(), FilePaths(data));
  KKADM_RETURN_IF_ERROR(RunNodeChecks(data, leftovers));
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  KKADM_RETURN_IF_ERROR(CheckLeftoversBelongToCluster(leftovers, **cluster));
  auto client = data.bootstrap_client();
  if (!client) return client.error();
  const std::string& name = data.cfg.node_registration.name;
  const bool is_this_node =
      leftovers.Resumable() && leftovers.kubelet_identity &&
      KubeconfigIdentifiesAs(data.fs(), data.kubelet_kubeconfig_path(), "system:node:" + name);
  KKADM_RETURN_IF_ERROR(CheckNodeNotReady(**client, name, is_this_node));
  if (!data.control_plane()) return Status::Ok();
  return RunControlPlaneChecks(data, leftovers, **cluster);
}

}  // namespace kkadm::phases
