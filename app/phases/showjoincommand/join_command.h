// The `kkadm join ...` commands printed after init and by `kkadm token create`: kubeadm's flag form
// (kubeadm's cmd/util/join.go) and kkadm's one-argument join token (docs/join-token.md).
#pragma once

#include <string>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/join_token.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kValueWithheld = "<value withheld>";

struct JoinCommandInput {
  std::string kubeconfig_path;  // admin.conf: its cluster gives the endpoint and the CA
  std::string token;
  std::string certificate_key;  // printed after --control-plane when not empty
  bool control_plane = false;
  bool skip_token_print = false;            // "<value withheld>" instead of the token
  bool skip_certificate_key_print = false;  // "<value withheld>" instead of the key
};

// "kkadm join <host:port> --token <tok> \\\n\t--discovery-token-ca-cert-hash sha256:<pin> "
// (one hash per CA certificate) [+ "\\\n\t--control-plane [--certificate-key <key>]"].
// NotFound/InvalidArgument when the kubeconfig or its CA cannot be read.
Result<std::string> JoinCommand(const util::FileSystem& fs, const JoinCommandInput& in);

// JoinCommand's text on one line, as `kubeadm token create --print-join-command` prints it: the
// "\\\n" continuations and the tabs are removed (kubeadm's strings.ReplaceAll), nothing else, so
// a script that keeps only the first line of the output (Ansible's stdout_lines[0]) gets it whole.
std::string SingleLineJoinCommand(const std::string& command);

struct JoinTokenInput {
  std::string kubeconfig_path;         // admin.conf: its cluster's server and CA bundle
  std::string control_plane_endpoint;  // the ClusterConfiguration's, "" or "host[:port]"
  std::string token;                   // "<id>.<secret>"
  std::string certificate_key;         // 64 hex characters for a control-plane token, else ""
};

// The fields of a join token: the endpoints are the controlPlaneEndpoint (given the port of the
// kubeconfig's server when it has none) and then the kubeconfig's server, each once; the pins are
// those of every certificate of the kubeconfig's CA bundle. Reads only `fs`; the result is checked
// by EncodeJoinToken, so InvalidArgument names a malformed field, never a secret.
Result<util::JoinToken> JoinTokenFor(const util::FileSystem& fs, const JoinTokenInput& in);

// EncodeJoinToken(JoinTokenFor(...)): the "kk1.…" text.
Result<std::string> EncodedJoinToken(const util::FileSystem& fs, const JoinTokenInput& in);

// The server URL of a kubeconfig as "host:port" ("https://" and any path removed; the port 443
// added when the URL has none).
std::string ServerHostPort(const std::string& server);

}  // namespace kkadm::phases
