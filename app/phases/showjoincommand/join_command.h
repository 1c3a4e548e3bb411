// The `kkadm join ...` command line kubeadm prints after init and for `token create
// --print-join-command` (kubeadm's cmd/util/join.go).
#pragma once

#include <string>

#include "app/util/file_system.h"
#include "app/util/status.h"

namespace kkadm::phases {

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

}  // namespace kkadm::phases
