// Dynamic defaults for kubeadm configurations.
#include "app/config/defaults.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

#include "app/util/bootstrap_token_syntax.h"
#include "app/util/net_rules.h"
#include "app/util/version_numbers.h"
#include "build_info.h"

namespace kkadm::config {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

void DefaultString(std::string& field, const char* value) {
  if (field.empty()) field = value;
}

// kubeadm chooses an address when the configured one is missing or unspecified ("0.0.0.0", "::").
bool IsUnspecifiedAddress(const std::string& address) {
  auto ip = util::ParseIp(address);
  return ip && util::IsUnspecifiedIp(*ip);
}

Status DefaultAdvertiseAddress(APIEndpoint& endpoint, const util::Machine& machine) {
  if (!endpoint.advertise_address.empty() && !IsUnspecifiedAddress(endpoint.advertise_address))
    return Status();
  auto address = machine.DefaultRouteAddress();
  if (!address)
    return address.error().Wrap(
        "unable to select an IP from default routes for the advertise address");
  endpoint.advertise_address = *address;
  return Status();
}

// kubeadm still accepts a bare socket path and turns it into a unix:// URL.
void DefaultCriSocket(std::string& socket) {
  DefaultString(socket, kDefaultCriSocket);
  if (socket[0] == '/') socket = "unix://" + socket;
}

void SetNodeRegistrationDefaults(NodeRegistration& node, const util::Machine& machine) {
  if (node.name.empty()) node.name = machine.Hostname();
  node.name = Lower(node.name);
  DefaultCriSocket(node.cri_socket);
  DefaultString(node.image_pull_policy, "IfNotPresent");
  node.ignore_preflight_errors = NormalizePreflightErrors(node.ignore_preflight_errors);
}

Status SetTokenDefaults(std::vector<BootstrapToken>& tokens) {
  if (tokens.empty()) {
    tokens.emplace_back();
    tokens.back().description = kDefaultTokenDescription;
  }
  BootstrapToken defaults;
  for (BootstrapToken& token : tokens) {
    if (token.id.empty()) {
      auto fresh = util::GenerateBootstrapToken();
      if (!fresh) return fresh.error();
      auto parts = util::SplitBootstrapToken(*fresh);
      token.id = parts->id;
      token.secret = parts->secret;
    }
    // ttl and expires are mutually exclusive; the default ttl applies only when neither is set.
    if (!token.ttl && !token.expires) token.ttl = std::chrono::hours(24);
    if (token.usages.empty()) token.usages = defaults.usages;
    if (token.groups.empty()) token.groups = defaults.groups;
  }
  return Status();
}

}  // namespace

Status DetectCriSocketIfUnset(std::string& socket, const CriSocketDetector& detect) {
  if (!socket.empty() || !detect) return Status();
  Result<std::string> found = detect();
  if (!found) return found.error();
  spdlog::debug("detected and using CRI socket: {}", *found);
  socket = *found;
  return Status();
}

std::string ResolveKubernetesVersion(const std::string& version) {
  if (version.empty()) return build_info::kKubernetesVersion;
  util::Scanner bare(version);  // \d+\.\d+\.\d+.*
  if (util::ConsumeVersionNumbers(bare) && util::AllOf(bare.rest(), util::IsNotLineBreak)) {
    return "v" + version;
  }
  return version;
}

std::vector<std::string> NormalizePreflightErrors(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const std::string& name : names) {
    std::string lower = Lower(name);
    if (std::find(out.begin(), out.end(), lower) == out.end()) out.push_back(lower);
  }
  return out;
}

void SetClusterDefaults(ClusterConfiguration& cfg) {
  cfg.kubernetes_version = ResolveKubernetesVersion(cfg.kubernetes_version);
  DefaultString(cfg.networking.service_subnet, "10.96.0.0/12");
  DefaultString(cfg.networking.dns_domain, "cluster.local");
  DefaultString(cfg.certificates_dir, "/etc/kubernetes/pki");
  DefaultString(cfg.image_repository, "registry.k8s.io");
  DefaultString(cfg.cluster_name, "kubernetes");
  // kubeadm's LowercaseSANs: names such as cloud load balancers' come upper-case, DNS ignores case
  // and the SAN checks accept only lower case.
  for (std::string& san : cfg.api_server.cert_sans) san = Lower(san);
  if (!cfg.etcd.local && !cfg.etcd.external) cfg.etcd.local = LocalEtcd{};
  if (cfg.etcd.local) DefaultString(cfg.etcd.local->data_dir, "/var/lib/etcd");
}

Status SetInitDefaults(InitConfiguration& cfg, const util::Machine& machine) {
  SetClusterDefaults(cfg.cluster);
  SetNodeRegistrationDefaults(cfg.node_registration, machine);
  KKADM_RETURN_IF_ERROR(DefaultAdvertiseAddress(cfg.local_api_endpoint, machine));
  if (cfg.local_api_endpoint.bind_port == 0) cfg.local_api_endpoint.bind_port = 6443;
  cfg.certificate_key = Lower(cfg.certificate_key);
  return SetTokenDefaults(cfg.bootstrap_tokens);
}

Status SetJoinDefaults(JoinConfiguration& cfg, const util::Machine& machine) {
  SetNodeRegistrationDefaults(cfg.node_registration, machine);
  DefaultString(cfg.ca_cert_path, "/etc/kubernetes/pki/ca.crt");
  Discovery& d = cfg.discovery;
  if (d.tls_bootstrap_token.empty() && d.bootstrap_token)
    d.tls_bootstrap_token = d.bootstrap_token->token;
  if (d.bootstrap_token) {
    for (std::string& hash : d.bootstrap_token->ca_cert_hashes) hash = Lower(hash);
  }
  if (d.file && d.file->kube_config_path.rfind("file://", 0) == 0) {
    d.file->kube_config_path = d.file->kube_config_path.substr(7);
  }
  if (cfg.control_plane) {
    KKADM_RETURN_IF_ERROR(DefaultAdvertiseAddress(cfg.control_plane->local_api_endpoint, machine));
    if (cfg.control_plane->local_api_endpoint.bind_port == 0)
      cfg.control_plane->local_api_endpoint.bind_port = 6443;
    cfg.control_plane->certificate_key = Lower(cfg.control_plane->certificate_key);
  }
  return Status();
}

void SetResetDefaults(ResetConfiguration& cfg) {
  DefaultString(cfg.certificates_dir, "/etc/kubernetes/pki");
  DefaultCriSocket(cfg.cri_socket);
  cfg.ignore_preflight_errors = NormalizePreflightErrors(cfg.ignore_preflight_errors);
}

}  // namespace kkadm::config
