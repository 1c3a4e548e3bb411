// Flag bookkeeping shared by the Make*Configuration functions: set-flag names, the --config
// mixing rule, feature-gate and preflight-error parsing.
#include <algorithm>
#include <cctype>
#include <set>

#include "app/config/defaults.h"
#include "app/config/make_config.h"

namespace kkadm::config {
namespace {

class Names {
 public:
  template <class T>
  Names& Add(const std::optional<T>& flag, const char* name) {
    if (flag) names_.push_back(name);
    return *this;
  }
  std::vector<std::string> Sorted() {
    std::sort(names_.begin(), names_.end());
    return names_;
  }

 private:
  std::vector<std::string> names_;
};

}  // namespace

std::vector<std::string> InitFlags::SetNames() const {
  return Names()
      .Add(apiserver_advertise_address, "apiserver-advertise-address")
      .Add(apiserver_bind_port, "apiserver-bind-port")
      .Add(node_name, "node-name")
      .Add(certificate_key, "certificate-key")
      .Add(cri_socket, "cri-socket")
      .Add(service_cidr, "service-cidr")
      .Add(pod_network_cidr, "pod-network-cidr")
      .Add(service_dns_domain, "service-dns-domain")
      .Add(control_plane_endpoint, "control-plane-endpoint")
      .Add(kubernetes_version, "kubernetes-version")
      .Add(cert_dir, "cert-dir")
      .Add(apiserver_cert_extra_sans, "apiserver-cert-extra-sans")
      .Add(feature_gates, "feature-gates")
      .Add(token, "token")
      .Add(token_ttl, "token-ttl")
      .Add(image_repository, "image-repository")
      .Add(patches, "patches")
      .Add(ignore_preflight_errors, "ignore-preflight-errors")
      .Add(dry_run, "dry-run")
      .Add(skip_phases, "skip-phases")
      .Sorted();
}

std::vector<std::string> JoinFlags::SetNames() const {
  return Names()
      .Add(discovery_token, "discovery-token")
      .Add(discovery_token_ca_cert_hash, "discovery-token-ca-cert-hash")
      .Add(discovery_token_unsafe_skip_ca_verification,
           "discovery-token-unsafe-skip-ca-verification")
      .Add(discovery_file, "discovery-file")
      .Add(tls_bootstrap_token, "tls-bootstrap-token")
      .Add(token, "token")
      .Add(control_plane, "control-plane")
      .Add(certificate_key, "certificate-key")
      .Add(apiserver_advertise_address, "apiserver-advertise-address")
      .Add(apiserver_bind_port, "apiserver-bind-port")
      .Add(node_name, "node-name")
      .Add(cri_socket, "cri-socket")
      .Add(patches, "patches")
      .Add(ignore_preflight_errors, "ignore-preflight-errors")
      .Add(dry_run, "dry-run")
      .Add(skip_phases, "skip-phases")
      .Sorted();
}

std::vector<std::string> ResetFlags::SetNames() const {
  return Names()
      .Add(cert_dir, "cert-dir")
      .Add(cri_socket, "cri-socket")
      .Add(force, "force")
      .Add(cleanup_tmp_dir, "cleanup-tmp-dir")
      .Add(ignore_preflight_errors, "ignore-preflight-errors")
      .Add(dry_run, "dry-run")
      .Add(skip_phases, "skip-phases")
      .Sorted();
}

Status CheckMixedArguments(bool has_config, const std::vector<std::string>& set_flags) {
  if (!has_config) return Status();
  static const std::set<std::string> kAllowed = {"config",       "ignore-preflight-errors",
                                                 "dry-run",      "kubeconfig",
                                                 "node-name",    "kubeconfig-dir",
                                                 "upload-certs", "print-join-command",
                                                 "rootfs",       "v",
                                                 "log-file"};
  std::string mixed;
  for (const std::string& name : set_flags) {
    if (kAllowed.count(name) || name.rfind("skip-", 0) == 0) continue;
    mixed += (mixed.empty() ? "" : " ") + name;
  }
  if (mixed.empty()) return Status();
  return InvalidArgument("can not mix '--config' with arguments [" + mixed + "]");
}

Result<std::map<std::string, bool>> ParseFeatureGates(const std::string& text) {
  std::map<std::string, bool> gates;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t comma = text.find(',', start);
    std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t eq = item.find('=');
    std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    std::transform(value.begin(), value.end(), value.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (eq == std::string::npos || eq == 0 || (value != "true" && value != "false")) {
      return InvalidArgument("--feature-gates: invalid value \"" + text +
                             "\": must be a list of name=true|false pairs separated by commas");
    }
    gates[item.substr(0, eq)] = value == "true";
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return gates;
}

std::vector<std::string> MergePreflightErrors(
    const std::vector<std::string>& file_values,
    const std::optional<std::vector<std::string>>& flag_values) {
  std::vector<std::string> all = file_values;
  if (flag_values) {
    // The flag takes comma-separated lists as well as repeats.
    for (const std::string& value : *flag_values) {
      size_t start = 0;
      while (true) {
        size_t comma = value.find(',', start);
        std::string item =
            value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!item.empty()) all.push_back(item);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
    }
  }
  std::vector<std::string> out = NormalizePreflightErrors(all);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace kkadm::config
