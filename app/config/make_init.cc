// MakeInitConfiguration: --config file + init flags -> defaulted, validated InitConfiguration.
#include "app/config/defaults.h"
#include "app/config/field_reader.h"
#include "app/config/make_config.h"
#include "app/config/validate.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/duration.h"

namespace kkadm::config {
namespace {

BootstrapToken& FirstToken(InitConfiguration& cfg) {
  if (cfg.bootstrap_tokens.empty()) cfg.bootstrap_tokens.emplace_back();
  return cfg.bootstrap_tokens.front();
}

Status ApplyTokenFlags(const InitFlags& flags, InitConfiguration& cfg) {
  if (flags.token) {
    auto parts = util::SplitBootstrapToken(*flags.token);
    if (!parts) {
      // The origin already names the flag; it is not a defaulted one, so no command renames it.
      return InvalidField(DefaultedOrigin("InitConfiguration") + ": --token",
                          "bootstrapTokens[0].token",
                          flags.token->substr(0, flags.token->find('.')) + ".<redacted>",
                          "the bootstrap token must match ^[a-z0-9]{6}\\.[a-z0-9]{16}$");
    }
    BootstrapToken& token = FirstToken(cfg);
    token.id = std::move(parts->id);
    token.secret = std::move(parts->secret);
  }
  if (flags.token_ttl) {
    auto ttl = util::ParseDuration(*flags.token_ttl);
    if (!ttl) {
      return InvalidField(DefaultedOrigin("InitConfiguration") + ": --token-ttl",
                          "bootstrapTokens[0].ttl", *flags.token_ttl, ttl.error().message());
    }
    FirstToken(cfg).ttl = *ttl;
  }
  return Status();
}

Status ApplyClusterFlags(const InitFlags& flags, ClusterConfiguration& cluster) {
  OverrideIfSet(cluster.networking.service_subnet, flags.service_cidr);
  OverrideIfSet(cluster.networking.pod_subnet, flags.pod_network_cidr);
  OverrideIfSet(cluster.networking.dns_domain, flags.service_dns_domain);
  OverrideIfSet(cluster.control_plane_endpoint, flags.control_plane_endpoint);
  OverrideIfSet(cluster.kubernetes_version, flags.kubernetes_version);
  OverrideIfSet(cluster.certificates_dir, flags.cert_dir);
  OverrideIfSet(cluster.api_server.cert_sans, flags.apiserver_cert_extra_sans);
  OverrideIfSet(cluster.image_repository, flags.image_repository);
  if (flags.feature_gates) {
    auto gates = ParseFeatureGates(*flags.feature_gates);
    if (!gates) return gates.error();
    cluster.feature_gates = *gates;
  }
  return Status();
}

// Flags kubeadm binds into the configuration; with --config only the allowed ones are set.
Status ApplyInitFlags(const InitFlags& flags, InitConfiguration& cfg) {
  OverrideIfSet(cfg.local_api_endpoint.advertise_address, flags.apiserver_advertise_address);
  OverrideIfSet(cfg.local_api_endpoint.bind_port, flags.apiserver_bind_port);
  OverrideIfSet(cfg.certificate_key, flags.certificate_key);
  ApplyNodeRunFlags(flags, cfg);
  KKADM_RETURN_IF_ERROR(ApplyTokenFlags(flags, cfg));
  return ApplyClusterFlags(flags, cfg.cluster);
}

void WarnUnexpectedKinds(const LoadedDocuments& docs, std::vector<std::string>& warnings) {
  if (docs.join)
    warnings.push_back(docs.join_origin + ": kind: JoinConfiguration is not used by init; ignored");
  if (docs.reset)
    warnings.push_back(docs.reset_origin +
                       ": kind: ResetConfiguration is not used by init; ignored");
}

}  // namespace

Result<LoadedInit> MakeInitConfiguration(const std::optional<ConfigSource>& file,
                                         const InitFlags& flags, const util::Machine& machine,
                                         const ReleaseVersionSource& versions,
                                         const CriSocketDetector& detect_cri) {
  KKADM_RETURN_IF_ERROR(CheckMixedArguments(file.has_value(), flags.SetNames()));
  LoadedInit out;
  std::string init_origin = DefaultedOrigin("InitConfiguration");
  std::string cluster_origin = DefaultedOrigin("ClusterConfiguration");
  if (file) {
    auto docs = LoadDocuments(*file, /*strict=*/false);
    if (!docs) return docs.error();
    out.warnings = docs->warnings;
    WarnUnexpectedKinds(*docs, out.warnings);
    if (docs->init) {
      out.cfg = std::move(*docs->init);
      init_origin = docs->init_origin;
    }
    if (docs->cluster) {
      out.cfg.cluster = std::move(docs->cluster->cfg);
      cluster_origin = docs->cluster_origin;
      if (docs->cluster->timeout_for_control_plane) {
        out.cfg.timeouts.control_plane_component_health_check =
            *docs->cluster->timeout_for_control_plane;
      }
    }
    out.cfg.component_configs = std::move(docs->component_configs);
  }
  KKADM_RETURN_IF_ERROR(ApplyInitFlags(flags, out.cfg));
  auto version = ResolveVersionLabel(out.cfg.cluster.kubernetes_version, versions);
  if (!version) return version.error();
  out.cfg.cluster.kubernetes_version = *version;
  KKADM_RETURN_IF_ERROR(DetectCriSocketIfUnset(out.cfg.node_registration.cri_socket, detect_cri));
  KKADM_RETURN_IF_ERROR(SetInitDefaults(out.cfg, machine));
  KKADM_RETURN_IF_ERROR(
      ValidateInitConfiguration(out.cfg, init_origin, cluster_origin, out.warnings));
  return out;
}

}  // namespace kkadm::config
