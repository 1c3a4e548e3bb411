// The checks of a joining node that need more than one host fact: the endpoint, the Node, the
// control plane's shared certificates.
#include "app/phases/preflight/join_checks.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "app/phases/preflight/checks_files.h"
#include "app/phases/preflight/checks_proxy.h"
#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/control_plane_checks.h"
#include "app/phases/preflight/run_checks.h"
#include "app/util/ascii.h"
#include "app/util/kubeconfig.h"
#include "app/util/net_rules.h"
#include "app/util/pki/certificate.h"

namespace kkadm::phases {

void AddJoinEndpointChecks(const std::string& endpoint, preflight::CheckList& checks) {
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

namespace {

// The PEM of `inline_pem`, else of the file `file` names (read through `fs`); empty if neither.
std::string PemOf(const util::FileSystem& fs, const std::string& inline_pem,
                  const std::string& file) {
  if (!inline_pem.empty() || file.empty()) return inline_pem;
  auto text = fs.ReadFile(file);
  return text ? *text : std::string();
}

}  // namespace

bool KubeconfigIsUserOf(const util::FileSystem& fs, const std::string& path,
                        const std::string& user, const std::string& ca_pem) {
  auto text = fs.ReadFile(path);
  if (!text) return false;
  auto config = util::DecodeKubeconfig(*text);
  if (!config || config->CurrentUser() == nullptr || config->CurrentCluster() == nullptr) {
    return false;
  }
  const util::KubeconfigCluster& cluster = *config->CurrentCluster();
  const std::string trusted =
      PemOf(fs, cluster.certificate_authority_data, cluster.certificate_authority);
  if (trusted.empty() || util::TrimSpace(trusted) != util::TrimSpace(ca_pem)) return false;
  const util::KubeconfigUser& u = *config->CurrentUser();
  auto cert =
      util::pki::Certificate::ParsePem(PemOf(fs, u.client_certificate_data, u.client_certificate));
  return cert && cert->CommonName() == user;
}

}  // namespace kkadm::phases
