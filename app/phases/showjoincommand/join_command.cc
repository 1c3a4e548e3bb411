// Join command text and join tokens (see join_command.h).
#include "app/phases/showjoincommand/join_command.h"

#include <algorithm>

#include "app/util/kube_apply.h"
#include "app/util/kubeconfig.h"
#include "app/util/net_rules.h"
#include "app/util/pubkey_pin.h"

namespace kkadm::phases {
namespace {

struct ClusterFacts {
  std::string server;  // as written in the kubeconfig
  std::vector<std::string> pins;
};

Result<ClusterFacts> ReadCluster(const util::FileSystem& fs, const std::string& kubeconfig_path) {
  auto cluster = util::ReadCurrentCluster(fs, kubeconfig_path);
  if (!cluster) return cluster.error().Wrap("failed to load admin kubeconfig");
  auto pins = util::PinsOfPemBundle(cluster->certificate_authority_data);
  if (!pins) return pins.error().Wrap("failed to parse the CA of admin kubeconfig");
  return ClusterFacts{cluster->server, *pins};
}

}  // namespace

std::string ServerHostPort(const std::string& server) {
  std::string rest = server;
  if (const size_t scheme = rest.find("://"); scheme != std::string::npos)
    rest.erase(0, scheme + 3);
  if (const size_t path = rest.find('/'); path != std::string::npos) rest.erase(path);
  if (!rest.empty() && rest.front() == '[' && rest.back() == ']') return rest + ":443";
  auto host_port = util::ParseHostPort(rest);
  if (!host_port || !host_port->port.empty()) return rest;
  return util::JoinHostPort(host_port->host, "443");
}

Result<std::string> JoinCommand(const util::FileSystem& fs, const JoinCommandInput& in) {
  auto cluster = ReadCluster(fs, in.kubeconfig_path);
  if (!cluster) return cluster.error();
  std::string host_port = cluster->server;
  for (size_t at = host_port.find("https://"); at != std::string::npos;
       at = host_port.find("https://")) {
    host_port.erase(at, 8);
  }
  std::string out = "kkadm join " + host_port + " --token " +
                    (in.skip_token_print ? kValueWithheld : in.token) + " \\\n\t";
  for (const auto& pin : cluster->pins) out += "--discovery-token-ca-cert-hash " + pin + " ";
  if (in.control_plane) {
    out += "\\\n\t--control-plane ";
    if (!in.certificate_key.empty()) {
      out += "--certificate-key " +
             (in.skip_certificate_key_print ? std::string(kValueWithheld) : in.certificate_key);
    }
  }
  return out;
}

std::string SingleLineJoinCommand(const std::string& command) {
  std::string out;
  out.reserve(command.size());
  for (size_t i = 0; i < command.size(); ++i) {
    if (command[i] == '\\' && i + 1 < command.size() && command[i + 1] == '\n') {
      ++i;  // the continuation's newline goes with it
    } else if (command[i] != '\t') {
      out += command[i];
    }
  }
  return out;
}

Result<util::JoinToken> JoinTokenFor(const util::FileSystem& fs, const JoinTokenInput& in) {
  auto cluster = ReadCluster(fs, in.kubeconfig_path);
  if (!cluster) return cluster.error();
  const std::string server = ServerHostPort(cluster->server);
  util::JoinToken token;
  if (!in.control_plane_endpoint.empty()) {
    auto endpoint = util::ParseHostPort(in.control_plane_endpoint);
    if (!endpoint) {
      return endpoint.error().Wrap("invalid controlPlaneEndpoint \"" + in.control_plane_endpoint +
                                   "\"");
    }
    if (endpoint->port.empty()) {
      auto server_port = util::ParseHostPort(server);
      endpoint->port = server_port && !server_port->port.empty() ? server_port->port : "6443";
    }
    token.endpoints.push_back(util::JoinHostPort(endpoint->host, endpoint->port));
  }
  if (std::find(token.endpoints.begin(), token.endpoints.end(), server) == token.endpoints.end()) {
    token.endpoints.push_back(server);
  }
  token.bootstrap_token = in.token;
  token.ca_cert_hashes = cluster->pins;
  token.certificate_key = in.certificate_key;
  auto encoded = util::EncodeJoinToken(token);
  if (!encoded) return encoded.error();
  return token;
}

Result<std::string> EncodedJoinToken(const util::FileSystem& fs, const JoinTokenInput& in) {
  auto token = JoinTokenFor(fs, in);
  if (!token) return token.error();
  return util::EncodeJoinToken(*token);
}

}  // namespace kkadm::phases
