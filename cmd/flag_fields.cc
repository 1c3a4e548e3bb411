// The flag-to-field tables of init, join and reset, and the error rewording (see flag_fields.h).
#include "cmd/flag_fields.h"

#include <algorithm>
#include <array>

#include "app/config/load.h"

namespace kkadm::cmd {
namespace {

constexpr std::array kInitFlagFields = {
    FlagField{"apiserver-advertise-address", "localAPIEndpoint.advertiseAddress"},
    FlagField{"apiserver-bind-port", "localAPIEndpoint.bindPort"},
    FlagField{"apiserver-cert-extra-sans", "apiServer.certSANs"},
    FlagField{"cert-dir", "certificatesDir"},
    FlagField{"certificate-key", "certificateKey"},
    FlagField{"control-plane-endpoint", "controlPlaneEndpoint"},
    FlagField{"cri-socket", "nodeRegistration.criSocket"},
    FlagField{"feature-gates", "featureGates"},
    FlagField{"ignore-preflight-errors", "nodeRegistration.ignorePreflightErrors"},
    FlagField{"image-repository", "imageRepository"},
    FlagField{"kubernetes-version", "kubernetesVersion"},
    FlagField{"node-name", "nodeRegistration.name"},
    FlagField{"patches", "patches.directory"},
    FlagField{"pod-network-cidr", "networking.podSubnet"},
    FlagField{"service-cidr", "networking.serviceSubnet"},
    FlagField{"service-dns-domain", "networking.dnsDomain"},
    FlagField{"token", "bootstrapTokens[0].token"},
    FlagField{"token-ttl", "bootstrapTokens[0].ttl"},
};

// --token sets both tokens, but --discovery-token and --tls-bootstrap-token take precedence.
constexpr std::array kJoinFlagFields = {
    FlagField{"discovery-token", "discovery.bootstrapToken.token"},
    FlagField{"token", "discovery.bootstrapToken.token"},
    FlagField{"discovery-token-ca-cert-hash", "discovery.bootstrapToken.caCertHashes"},
    FlagField{"discovery-file", "discovery.file.kubeConfigPath"},
    FlagField{"tls-bootstrap-token", "discovery.tlsBootstrapToken"},
    FlagField{"token", "discovery.tlsBootstrapToken"},
    FlagField{"certificate-key", "controlPlane.certificateKey"},
    FlagField{"apiserver-advertise-address", "controlPlane.localAPIEndpoint.advertiseAddress"},
    FlagField{"apiserver-bind-port", "controlPlane.localAPIEndpoint.bindPort"},
    FlagField{"node-name", "nodeRegistration.name"},
    FlagField{"cri-socket", "nodeRegistration.criSocket"},
    FlagField{"ignore-preflight-errors", "nodeRegistration.ignorePreflightErrors"},
    FlagField{"patches", "patches.directory"},
};

constexpr std::array kResetFlagFields = {
    FlagField{"cert-dir", "certificatesDir"},
    FlagField{"cri-socket", "criSocket"},
    FlagField{"ignore-preflight-errors", "ignorePreflightErrors"},
};

// `path` is `field` itself or one of its list elements ("apiServer.certSANs[0]").
bool Covers(std::string_view field, std::string_view path) {
  return path.starts_with(field) && (path.size() == field.size() || path[field.size()] == '[');
}

}  // namespace

Status NameFlagInError(const Status& error, std::span<const FlagField> fields,
                       const std::vector<std::string>& set_flags) {
  const FieldError* field = error.field();
  if (field == nullptr || !config::IsDefaultedOrigin(field->origin)) return error;
  for (const FlagField& row : fields) {
    if (!Covers(row.field, field->path)) continue;
    if (std::find(set_flags.begin(), set_flags.end(), row.flag) == set_flags.end()) continue;
    return Status::Field({"--" + std::string(row.flag), field->path, field->problem});
  }
  return error;
}

std::span<const FlagField> InitFlagFields() { return kInitFlagFields; }
std::span<const FlagField> JoinFlagFields() { return kJoinFlagFields; }
std::span<const FlagField> ResetFlagFields() { return kResetFlagFields; }

}  // namespace kkadm::cmd
