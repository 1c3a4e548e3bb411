// MakeJoinConfiguration / MakeResetConfiguration: --config file + flags -> defaulted, validated
// config.
#include <algorithm>

#include "app/config/defaults.h"
#include "app/config/make_config.h"
#include "app/config/validate.h"

namespace kkadm::config {
namespace {

void ApplyDiscoveryFlags(const JoinFlags& flags, JoinConfiguration& cfg) {
  std::string discovery_token = flags.discovery_token.value_or("");
  OverrideIfSet(cfg.discovery.tls_bootstrap_token, flags.tls_bootstrap_token);
  if (flags.token) {
    if (discovery_token.empty()) discovery_token = *flags.token;
    if (cfg.discovery.tls_bootstrap_token.empty()) cfg.discovery.tls_bootstrap_token = *flags.token;
  }
  if (flags.discovery_file) {
    cfg.discovery.file = FileDiscovery{*flags.discovery_file};
    return;
  }
  if (discovery_token.empty() && !flags.endpoint) return;
  BootstrapTokenDiscovery bt;
  bt.token = discovery_token;
  bt.api_server_endpoint = flags.endpoint.value_or("");
  bt.ca_cert_hashes = flags.discovery_token_ca_cert_hash.value_or(std::vector<std::string>{});
  bt.unsafe_skip_ca_verification =
      flags.discovery_token_unsafe_skip_ca_verification.value_or(false);
  cfg.discovery.bootstrap_token = std::move(bt);
}

void ApplyControlPlaneFlags(const JoinFlags& flags, JoinConfiguration& cfg,
                            std::vector<std::string>& warnings) {
  if (!flags.control_plane.value_or(false)) {
    std::vector<std::string> set = flags.SetNames();
    for (const char* name :
         {"apiserver-advertise-address", "apiserver-bind-port", "certificate-key"}) {
      if (std::find(set.begin(), set.end(), name) != set.end()) {
        warnings.push_back(std::string("--") + name +
                           " is only used with --control-plane; ignored");
      }
    }
    return;
  }
  if (!cfg.control_plane) cfg.control_plane = JoinControlPlane{};
  OverrideIfSet(cfg.control_plane->local_api_endpoint.advertise_address,
                flags.apiserver_advertise_address);
  OverrideIfSet(cfg.control_plane->local_api_endpoint.bind_port, flags.apiserver_bind_port);
  OverrideIfSet(cfg.control_plane->certificate_key, flags.certificate_key);
}

}  // namespace

Result<LoadedJoin> MakeJoinConfiguration(const std::optional<ConfigSource>& file,
                                         const JoinFlags& flags, const util::Machine& machine,
                                         const CriSocketDetector& detect_cri) {
  KKADM_RETURN_IF_ERROR(CheckMixedArguments(file.has_value(), flags.SetNames()));
  LoadedJoin out;
  std::string origin = DefaultedOrigin("JoinConfiguration");
  if (file) {
    auto docs = LoadDocuments(*file, /*strict=*/false);
    if (!docs) return docs.error();
    out.warnings = docs->warnings;
    if (!docs->join) return InvalidArgument(file->name + ": no JoinConfiguration document found");
    if (docs->init)
      out.warnings.push_back(docs->init_origin +
                             ": kind: InitConfiguration is not used by join; ignored");
    if (docs->cluster) {
      out.warnings.push_back(docs->cluster_origin +
                             ": kind: ClusterConfiguration is not used by join; ignored");
    }
    out.cfg = std::move(*docs->join);
    origin = docs->join_origin;
    out.cfg.component_configs = std::move(docs->component_configs);
    if (flags.endpoint) {
      out.warnings.push_back("the api-server-endpoint argument is ignored when --config is used");
    }
  } else {
    ApplyDiscoveryFlags(flags, out.cfg);
    ApplyControlPlaneFlags(flags, out.cfg, out.warnings);
  }
  ApplyNodeRunFlags(flags, out.cfg);
  KKADM_RETURN_IF_ERROR(DetectCriSocketIfUnset(out.cfg.node_registration.cri_socket, detect_cri));
  KKADM_RETURN_IF_ERROR(SetJoinDefaults(out.cfg, machine));
  KKADM_RETURN_IF_ERROR(ValidateJoinConfiguration(out.cfg, origin, machine, out.warnings));
  return out;
}

Result<LoadedReset> MakeResetConfiguration(const std::optional<ConfigSource>& file,
                                           const ResetFlags& flags,
                                           const CriSocketDetector& detect_cri) {
  KKADM_RETURN_IF_ERROR(CheckMixedArguments(file.has_value(), flags.SetNames()));
  LoadedReset out;
  std::string origin = DefaultedOrigin("ResetConfiguration");
  if (file) {
    auto docs = LoadDocuments(*file, /*strict=*/false);
    if (!docs) return docs.error();
    out.warnings = docs->warnings;
    if (docs->reset) {
      out.cfg = std::move(*docs->reset);
      origin = docs->reset_origin;
    }
  }
  OverrideIfSet(out.cfg.certificates_dir, flags.cert_dir);
  OverrideIfSet(out.cfg.cri_socket, flags.cri_socket);
  OverrideIfSet(out.cfg.force, flags.force);
  OverrideIfSet(out.cfg.cleanup_tmp_dir, flags.cleanup_tmp_dir);
  OverrideIfSet(out.cfg.dry_run, flags.dry_run);
  OverrideIfSet(out.cfg.skip_phases, flags.skip_phases);
  out.cfg.ignore_preflight_errors =
      MergePreflightErrors(out.cfg.ignore_preflight_errors, flags.ignore_preflight_errors);
  KKADM_RETURN_IF_ERROR(DetectCriSocketIfUnset(out.cfg.cri_socket, detect_cri));
  SetResetDefaults(out.cfg);
  KKADM_RETURN_IF_ERROR(ValidateResetConfiguration(out.cfg, origin, out.warnings));
  return out;
}

}  // namespace kkadm::config
