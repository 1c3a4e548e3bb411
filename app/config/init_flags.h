// InitFlags: the config-bound flags of `kkadm init` (kubeadm's init flags, §2). A set optional
// means the user gave the flag; the command layer binds CLI11 options to these.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kkadm::config {

struct InitFlags {
  std::optional<std::string> apiserver_advertise_address;
  std::optional<int> apiserver_bind_port;
  std::optional<std::string> node_name;
  std::optional<std::string> certificate_key;
  std::optional<std::string> cri_socket;
  std::optional<std::string> service_cidr;
  std::optional<std::string> pod_network_cidr;
  std::optional<std::string> service_dns_domain;
  std::optional<std::string> control_plane_endpoint;
  std::optional<std::string> kubernetes_version;
  std::optional<std::string> cert_dir;
  std::optional<std::vector<std::string>> apiserver_cert_extra_sans;
  std::optional<std::string> feature_gates;  // "A=true,B=false"
  std::optional<std::string> token;          // "id.secret"
  std::optional<std::string> token_ttl;      // Go duration, e.g. "24h0m0s"
  std::optional<std::string> image_repository;
  std::optional<std::string> patches;
  // Allowed together with --config (kubeadm's isAllowedFlag: these, --upload-certs and --skip-*).
  std::optional<std::vector<std::string>> ignore_preflight_errors;
  std::optional<bool> dry_run;
  std::optional<std::vector<std::string>> skip_phases;

  // The kebab-case names of the flags that are set, sorted (pflag's Visit order).
  std::vector<std::string> SetNames() const;
};

}  // namespace kkadm::config
