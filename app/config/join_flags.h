// JoinFlags and ResetFlags: the config-bound flags of `kkadm join` and `kkadm reset` (§3, §4).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kkadm::config {

struct JoinFlags {
  std::optional<std::string> endpoint;  // the positional [api-server-endpoint]
  std::optional<std::string> discovery_token;
  std::optional<std::vector<std::string>> discovery_token_ca_cert_hash;
  std::optional<bool> discovery_token_unsafe_skip_ca_verification;
  std::optional<std::string> discovery_file;
  std::optional<std::string> tls_bootstrap_token;
  std::optional<std::string> token;  // fills discovery-token and tls-bootstrap-token when empty
  std::optional<bool> control_plane;
  std::optional<std::string> certificate_key;
  std::optional<std::string> apiserver_advertise_address;
  std::optional<int> apiserver_bind_port;
  std::optional<std::string> node_name;
  std::optional<std::string> cri_socket;
  std::optional<std::string> patches;
  std::optional<std::vector<std::string>> ignore_preflight_errors;
  std::optional<bool> dry_run;
  std::optional<std::vector<std::string>> skip_phases;

  std::vector<std::string> SetNames() const;  // sorted kebab-case names of set flags
};

struct ResetFlags {
  std::optional<std::string> cert_dir;
  std::optional<std::string> cri_socket;
  std::optional<bool> force;
  std::optional<bool> cleanup_tmp_dir;
  std::optional<std::vector<std::string>> ignore_preflight_errors;
  std::optional<bool> dry_run;
  std::optional<std::vector<std::string>> skip_phases;

  std::vector<std::string> SetNames() const;  // sorted kebab-case names of set flags
};

}  // namespace kkadm::config
