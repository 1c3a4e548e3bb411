// The flags of `kkadm join` (kubeadm's names and help), registered once so the main command and
// the phase subcommands that inherit them bind the same storage; and the join-token argument.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>

#include "app/util/join_token.h"
#include "cmd/join_options.h"
#include "cmd/typed_flags.h"

namespace kkadm::cmd {
namespace {

void RegisterDiscoveryFlags(workflow::FlagSet& flags, config::JoinFlags& f) {
  AddStringFlag(flags, "discovery-token", f.discovery_token,
                "For token-based discovery, the token used to validate cluster information fetched "
                "from the API server.");
  AddListFlag(flags, "discovery-token-ca-cert-hash", f.discovery_token_ca_cert_hash,
              "For token-based discovery, validate that the root CA public key matches this hash "
              "(format: \"<type>:<value>\").");
  AddOptionalBoolFlag(
      flags, "discovery-token-unsafe-skip-ca-verification",
      f.discovery_token_unsafe_skip_ca_verification,
      "For token-based discovery, allow joining without --discovery-token-ca-cert-hash pinning.");
  AddStringFlag(flags, "discovery-file", f.discovery_file,
                "For file-based discovery, a file or URL from which to load cluster information.");
  AddStringFlag(flags, "tls-bootstrap-token", f.tls_bootstrap_token,
                "Specify the token used to temporarily authenticate with the Kubernetes Control "
                "Plane while joining the node.");
  AddStringFlag(flags, "token", f.token,
                "Use this token for both discovery-token and tls-bootstrap-token when those values "
                "are not provided.");
}

void RegisterNodeFlags(workflow::FlagSet& flags, config::JoinFlags& f) {
  AddNodeNameFlag(flags, f.node_name);
  AddCriSocketFlag(flags, f.cri_socket);
  AddStringFlag(flags, "certificate-key", f.certificate_key,
                "Use this key to decrypt the certificate secrets uploaded by init. The certificate "
                "key is a hex encoded string that is an AES key of size 32 bytes.");
  AddStringFlag(
      flags, "apiserver-advertise-address", f.apiserver_advertise_address,
      "If the node should host a new control plane instance, the IP address the API Server will "
      "advertise it's listening on. If not set the default network interface will be used.");
  AddApiServerBindPortFlag(
      flags, f.apiserver_bind_port,
      "If the node should host a new control plane instance, the port for the API Server to "
      "bind to. (default 6443)");
  AddOptionalBoolFlag(flags, "control-plane", f.control_plane,
                      "Create a new control plane instance on this node");
  AddPatchesFlag(flags, f.patches);
  AddIgnorePreflightErrorsFlag(flags, f.ignore_preflight_errors);
  AddDryRunFlag(flags, f.dry_run);
}

}  // namespace

void RegisterJoinFlags(workflow::FlagSet& flags, JoinOptions& o) {
  flags.Register("api-server-endpoint", [&o](CLI::App& app) {
    return app.add_option("api-server-endpoint", o.argument,
                          "The API server to join (host:port), or a kkadm join token (kk1.…) that "
                          "carries everything");
  });
  AddConfigFlag(flags, o.config_path);
  RegisterDiscoveryFlags(flags, o.flags);
  RegisterNodeFlags(flags, o.flags);
  AddBoolFlag(flags, "force", o.force,
              "Overwrite files that were changed since kkadm wrote them when phases run again.");
  flags.Register("cri-socket-wait", [&o](CLI::App& app) {
    return app
        .add_option("--cri-socket-wait", o.cri_socket_wait,
                    "How long the CRI pre-flight check waits for the container runtime's "
                    "socket to appear (e.g. 30s, 2m; 0s: not at all; kkadm's extension)")
        ->capture_default_str();
  });
}

Status ApplyJoinArgument(JoinOptions& options) {
  config::JoinFlags& f = options.flags;
  if (!util::LooksLikeJoinToken(options.argument)) {
    if (!options.argument.empty()) f.endpoint = options.argument;
    return Status::Ok();
  }
  auto token = util::DecodeJoinToken(options.argument);
  if (!token) return token.error();
  std::vector<std::string> mixed;
  if (!options.config_path.empty()) mixed.push_back("--config");
  for (const char* name : {"discovery-token", "discovery-token-ca-cert-hash",
                           "discovery-token-unsafe-skip-ca-verification", "discovery-file",
                           "tls-bootstrap-token", "token", "certificate-key"}) {
    for (const std::string& set : f.SetNames()) {
      if (set == name && !(set == "certificate-key" && token->certificate_key.empty()))
        mixed.push_back("--" + set);
    }
  }
  if (!mixed.empty()) {
    return InvalidArgument(
        fmt::format("a join token carries the discovery settings; it can not be mixed with [{}]",
                    fmt::join(mixed, " ")));
  }
  f.endpoint = token->endpoints.front();
  options.extra_endpoints.assign(token->endpoints.begin() + 1, token->endpoints.end());
  f.token = token->bootstrap_token;
  f.discovery_token_ca_cert_hash = token->ca_cert_hashes;
  if (!token->certificate_key.empty()) {
    f.certificate_key = token->certificate_key;
    f.control_plane = true;
  }
  return Status::Ok();
}

}  // namespace kkadm::cmd
