// Validation of InitConfiguration, JoinConfiguration, ResetConfiguration and their shared parts.
#include <algorithm>
#include <optional>
#include <string_view>

#include "app/config/field_reader.h"
#include "app/config/validate.h"
#include "app/util/ascii.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/duration.h"
#include "app/util/net_rules.h"

namespace kkadm::config {
namespace {

// A qualified name's form without its length limits: an optional DNS-1123 subdomain and "/",
// then the name.
bool HasTaintKeyForm(std::string_view key) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) return util::HasQualifiedNameForm(key);
  return util::HasDns1123SubdomainForm(key.substr(0, slash)) &&
         util::HasQualifiedNameForm(key.substr(slash + 1));
}

void ValidateTaints(const std::vector<Taint>& taints, const std::string& path, Checker& check) {
  for (size_t i = 0; i < taints.size(); ++i) {
    const Taint& t = taints[i];
    std::string p = Indexed(path, i);
    if (!HasTaintKeyForm(t.key)) check.Fail(p + ".key", t.key, "must be a qualified name");
    if (t.effect != "NoSchedule" && t.effect != "PreferNoSchedule" && t.effect != "NoExecute") {
      check.Fail(p + ".effect", t.effect, "must be one of NoSchedule, PreferNoSchedule, NoExecute");
    }
  }
}

void ValidateBootstrapTokens(const std::vector<BootstrapToken>& tokens, Checker& check) {
  for (size_t i = 0; i < tokens.size(); ++i) {
    const BootstrapToken& t = tokens[i];
    std::string p = Indexed("bootstrapTokens", i);
    ValidateTokenSyntax(t.Token(), p + ".token", check);
    if (t.ttl && t.ttl->count() < 0)
      check.Fail(p + ".ttl", util::FormatDuration(*t.ttl), "must be >= 0");
    if (t.ttl && t.expires) check.Fail(p, "", "ttl and expires are mutually exclusive");
    for (size_t j = 0; j < t.usages.size(); ++j) {
      if (t.usages[j] != "signing" && t.usages[j] != "authentication") {
        check.Fail(Indexed(p + ".usages", j), t.usages[j],
                   "must be one of signing, authentication");
      }
    }
    bool authentication =
        std::find(t.usages.begin(), t.usages.end(), "authentication") != t.usages.end();
    if (!t.groups.empty() && !authentication) {
      check.Fail(p + ".groups", t.groups[0],
                 "token groups cannot be specified unless usages includes \"authentication\"");
    }
    for (size_t j = 0; j < t.groups.size(); ++j) {
      if (!util::IsBootstrapGroupName(t.groups[j])) {
        check.Fail(Indexed(p + ".groups", j), t.groups[j],
                   "must match ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$");
      }
    }
  }
}

// sha256:<64 hex digits of either case>.
bool IsCaCertHash(std::string_view hash) {
  util::Scanner in(hash);
  return in.Consume("sha256:") && !in.Fixed(64, util::IsHexDigit).empty() && in.AtEnd();
}

// kubeadm parses the value as a URL: no scheme means a file, which must exist; a scheme must be
// https. Go's url.Parse sees a scheme in [A-Za-z][A-Za-z0-9+.-]* before the first ':'.
std::string_view UrlScheme(std::string_view value) {
  util::Scanner in(value);
  std::string_view scheme = in.Run(util::IsAsciiAlpha, [](char c) {
    return util::IsAsciiAlnum(c) || c == '+' || c == '-' || c == '.';
  });
  return in.Consume(':') ? scheme : std::string_view();
}

// "https://host[:port][/path...]" with a host Go's URL parser accepts; nullopt when well-formed.
std::optional<std::string> HttpsUrlProblem(std::string_view url) {
  util::Scanner in(url);
  // kkadm's discovery reads only lower-case "https://" URLs; anything else would be read as a file.
  if (!in.Consume("https://")) return "expected https://<host>[:<port>][/<path>]";
  std::string_view authority = in.rest().substr(0, in.rest().find_first_of("/?#"));
  if (authority.find('@') != std::string_view::npos) return "must not carry user information";
  const size_t close = authority.rfind(']');
  const size_t colon = authority.rfind(':');
  std::string_view host = authority;
  if (colon != std::string_view::npos && (close == std::string_view::npos || colon > close)) {
    std::string_view port = authority.substr(colon + 1);
    if (!util::AllOf(port, util::IsAsciiDigit)) return "the port must be a number";
    host = authority.substr(0, colon);
  }
  if (host.empty()) return "the host is missing";
  auto host_char = [](char c) {
    return util::IsAsciiAlnum(c) || std::string_view("-._~[]:%").find(c) != std::string_view::npos;
  };
  if (!util::AllOf(host, host_char))
    return "invalid character in host \"" + std::string(host) + "\"";
  return std::nullopt;
}

void ValidateDiscoveryFile(const std::string& value, const util::Machine& machine, Checker& check) {
  const std::string path = "discovery.file.kubeConfigPath";
  if (!util::AllOf(value,
                   [](char c) { return static_cast<unsigned char>(c) >= ' ' && c != 0x7f; })) {
    return check.Fail(path, value, "must not contain control characters");
  }
  if (!value.empty() && value.front() == ':')
    return check.Fail(path, value, "missing protocol scheme");
  const std::string_view scheme = UrlScheme(value);
  if (scheme.empty()) {
    if (!machine.PathExists(value)) {
      check.Fail(
          path, value,
          "no such file on this machine: give an existing kubeconfig file or an https:// URL");
    }
    return;
  }
  auto lower = [](char c) { return util::IsAsciiUpper(c) ? static_cast<char>(c - 'A' + 'a') : c; };
  std::string scheme_lower(scheme);
  std::transform(scheme_lower.begin(), scheme_lower.end(), scheme_lower.begin(), lower);
  if (scheme_lower != "https") {
    return check.Fail(path, value, "if a URL is used, the scheme must be https");
  }
  if (auto problem = HttpsUrlProblem(value))
    check.Fail(path, value, "not a well-formed https URL: " + *problem);
}

void ValidateDiscovery(const Discovery& d, const util::Machine& machine, Checker& check) {
  if (!d.bootstrap_token && !d.file) {
    return check.Fail("discovery", "",
                      "one of discovery.bootstrapToken or discovery.file must be set");
  }
  if (d.bootstrap_token && d.file) {
    return check.Fail("discovery", "",
                      "discovery.bootstrapToken and discovery.file are mutually exclusive");
  }
  if (d.file) return ValidateDiscoveryFile(d.file->kube_config_path, machine, check);
  const BootstrapTokenDiscovery& bt = *d.bootstrap_token;
  ValidateTokenSyntax(bt.token, "discovery.bootstrapToken.token", check);
  if (auto problem = HostPortProblem(bt.api_server_endpoint, true)) {
    check.Fail("discovery.bootstrapToken.apiServerEndpoint", bt.api_server_endpoint, *problem);
  }
  for (size_t i = 0; i < bt.ca_cert_hashes.size(); ++i) {
    if (!IsCaCertHash(bt.ca_cert_hashes[i])) {
      check.Fail(Indexed("discovery.bootstrapToken.caCertHashes", i), bt.ca_cert_hashes[i],
                 "must be in the format sha256:<64 hex characters>");
    }
  }
  if (bt.ca_cert_hashes.empty() && !bt.unsafe_skip_ca_verification) {
    check.Fail(
        "discovery.bootstrapToken.caCertHashes", "",
        "using token-based discovery without caCertHashes can be unsafe; set "
        "unsafeSkipCAVerification to true or pass --discovery-token-unsafe-skip-ca-verification");
  }
  ValidateTokenSyntax(d.tls_bootstrap_token, "discovery.tlsBootstrapToken", check);
}

}  // namespace

std::optional<std::string> HostPortProblem(const std::string& text, bool port_required) {
  const std::optional<util::HostPort> split = util::SplitHostPort(text);
  if (port_required && !split) return "must be in the form host:port";
  if (util::ParseHostPort(text)) return std::nullopt;
  const util::HostPort parts = split.value_or(util::HostPort{text, ""});
  if (!parts.port.empty() && !util::IsValidPort(parts.port)) {
    return "port must be a number between 1 and 65535";
  }
  return "host must be a valid IP address or DNS-1123 subdomain";
}

void ValidateTokenSyntax(const std::string& token, const std::string& path, Checker& check) {
  if (!util::IsBootstrapToken(token)) {
    check.Fail(path, token.substr(0, token.find('.')) + ".<redacted>",
               "the bootstrap token must match ^[a-z0-9]{6}\\.[a-z0-9]{16}$");
  }
}

void ValidateAbsolutePath(const std::string& value, const std::string& path, Checker& check) {
  if (value.empty() || value[0] != '/') check.Fail(path, value, "path is not absolute");
}

void ValidateNodeDirectory(const std::string& value, const std::string& path, Checker& check) {
  if (value.empty() || value[0] != '/') return check.Fail(path, value, "path is not absolute");
  bool root = true;
  for (std::size_t start = 0; start <= value.size();) {
    std::size_t end = value.find('/', start);
    if (end == std::string::npos) end = value.size();
    const std::string_view part = std::string_view(value).substr(start, end - start);
    if (part == "..") return check.Fail(path, value, "must not contain \"..\"");
    if (!part.empty() && part != ".") root = false;
    start = end + 1;
  }
  if (root) check.Fail(path, value, "must not be the root directory");
}

void ValidateCriSocket(const std::string& socket, const std::string& path, Checker& check) {
  if (socket.rfind("unix://", 0) != 0 || socket.size() == 7) {
    check.Fail(path, socket, "must be a unix:// URL (only the \"unix\" scheme is supported)");
  }
}

void ValidateCertificateKey(const std::string& key, const std::string& path, Checker& check) {
  if (!key.empty() && !(key.size() == 64 && util::AllOf(key, util::IsLowerHexDigit))) {
    check.Fail(path, "<redacted>", "must be 64 hexadecimal characters (a 32-byte key)");
  }
}

void ValidateIgnorePreflightErrors(const std::vector<std::string>& names, const std::string& path,
                                   Checker& check) {
  bool all = std::find(names.begin(), names.end(), "all") != names.end();
  if (all && names.size() > 1) {
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : ",") + n;
    check.Fail(path, joined, "don't specify individual checks if 'all' is used");
  }
}

void ValidateAPIEndpoint(const APIEndpoint& endpoint, const std::string& path, Checker& check) {
  auto ip = util::ParseIp(endpoint.advertise_address);
  if (!ip) {
    check.Fail(path + ".advertiseAddress", endpoint.advertise_address,
               "must be a valid IP address");
  } else if (util::IsUnspecifiedIp(*ip)) {
    check.Fail(path + ".advertiseAddress", endpoint.advertise_address,
               "must not be an unspecified address");
  }
  if (endpoint.bind_port < 1 || endpoint.bind_port > 65535) {
    check.Fail(path + ".bindPort", std::to_string(endpoint.bind_port),
               "must be between 1 and 65535");
  }
}

void ValidateNodeRegistration(const NodeRegistration& node, const std::string& path,
                              Checker& check) {
  if (!util::IsDns1123Subdomain(node.name)) {
    check.Fail(path + ".name", node.name, "must be a lowercase RFC 1123 subdomain");
  }
  ValidateCriSocket(node.cri_socket, path + ".criSocket", check);
  if (node.taints) ValidateTaints(*node.taints, path + ".taints", check);
  for (size_t i = 0; i < node.kubelet_extra_args.size(); ++i) {
    if (node.kubelet_extra_args[i].name.empty()) {
      check.Fail(Indexed(path + ".kubeletExtraArgs", i) + ".name", "",
                 "argument name must not be empty");
    }
  }
  ValidateIgnorePreflightErrors(node.ignore_preflight_errors, path + ".ignorePreflightErrors",
                                check);
  const std::string& policy = node.image_pull_policy;
  if (policy != "Always" && policy != "IfNotPresent" && policy != "Never") {
    check.Fail(path + ".imagePullPolicy", policy, "must be one of Always, IfNotPresent, Never");
  }
}

Status ValidateInitConfiguration(const InitConfiguration& cfg, const std::string& init_origin,
                                 const std::string& cluster_origin,
                                 std::vector<std::string>& warnings) {
  Checker check(init_origin, warnings);
  ValidateNodeRegistration(cfg.node_registration, "nodeRegistration", check);
  ValidateAPIEndpoint(cfg.local_api_endpoint, "localAPIEndpoint", check);
  ValidateBootstrapTokens(cfg.bootstrap_tokens, check);
  ValidateCertificateKey(cfg.certificate_key, "certificateKey", check);
  if (!cfg.patches_directory.empty())
    ValidateAbsolutePath(cfg.patches_directory, "patches.directory", check);
  KKADM_RETURN_IF_ERROR(check.status());
  return ValidateClusterConfiguration(cfg.cluster, cluster_origin, warnings);
}

Status ValidateJoinConfiguration(const JoinConfiguration& cfg, const std::string& origin,
                                 const util::Machine& machine, std::vector<std::string>& warnings) {
  Checker check(origin, warnings);
  ValidateNodeRegistration(cfg.node_registration, "nodeRegistration", check);
  const std::string& ca = cfg.ca_cert_path;
  if (ca.empty() || ca[0] != '/' || ca.size() < 4 || ca.compare(ca.size() - 4, 4, ".crt") != 0) {
    check.Fail("caCertPath", ca, "the CA certificate path must be an absolute path ending in .crt");
  }
  ValidateDiscovery(cfg.discovery, machine, check);
  if (cfg.control_plane) {
    ValidateAPIEndpoint(cfg.control_plane->local_api_endpoint, "controlPlane.localAPIEndpoint",
                        check);
    ValidateCertificateKey(cfg.control_plane->certificate_key, "controlPlane.certificateKey",
                           check);
  }
  if (!cfg.patches_directory.empty())
    ValidateAbsolutePath(cfg.patches_directory, "patches.directory", check);
  return check.status();
}

Status ValidateResetConfiguration(const ResetConfiguration& cfg, const std::string& origin,
                                  std::vector<std::string>& warnings) {
  Checker check(origin, warnings);
  ValidateNodeDirectory(cfg.certificates_dir, "certificatesDir", check);
  ValidateCriSocket(cfg.cri_socket, "criSocket", check);
  ValidateIgnorePreflightErrors(cfg.ignore_preflight_errors, "ignorePreflightErrors", check);
  for (size_t i = 0; i < cfg.unmount_flags.size(); ++i) {
    const std::string& f = cfg.unmount_flags[i];
    if (f != "MNT_FORCE" && f != "MNT_DETACH" && f != "MNT_EXPIRE" && f != "UMOUNT_NOFOLLOW") {
      check.Fail(Indexed("unmountFlags", i), f,
                 "must be one of MNT_FORCE, MNT_DETACH, MNT_EXPIRE, UMOUNT_NOFOLLOW");
    }
  }
  return check.status();
}

}  // namespace kkadm::config
