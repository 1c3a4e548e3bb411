// JoinOptions: the raw flags and argument of `kkadm join` and its phase subcommands, as the user
// gave them. MakeJoinData (cmd/join.cc) is the one place that turns them into validated JoinData.
#pragma once

#include <string>
#include <vector>

#include "app/config/join_flags.h"
#include "app/util/status.h"
#include "app/workflow/cli.h"

namespace kkadm::cmd {

struct JoinOptions {
  std::string config_path;
  config::JoinFlags flags;  // config-bound flags; set optionals are the ones the user gave
  std::string argument;     // the positional [api-server-endpoint | join-token]
  // The API endpoints of a join token after its first (which becomes the endpoint).
  std::vector<std::string> extra_endpoints;
  bool force = false;                   // overwrite files changed since kkadm wrote them
  std::string cri_socket_wait = "10s";  // the CRI check's wait for the runtime's socket
};

// Registers every flag of `kkadm join`, and the positional argument as "api-server-endpoint", in
// `flags`, bound to `options` (which must outlive them).
void RegisterJoinFlags(workflow::FlagSet& flags, JoinOptions& options);

// Turns the positional argument into flags. A join token ("kk1." prefix) is decoded (its one-line
// InvalidArgument error otherwise, before anything else happens) and its fields fill the flags
// they stand for: its first endpoint the endpoint, the bootstrap token --token, its pins
// --discovery-token-ca-cert-hash, its certificate key --certificate-key and --control-plane. A
// join token may not be combined with --config or with a flag it replaces (InvalidArgument naming
// them). Any other argument is the API server endpoint.
Status ApplyJoinArgument(JoinOptions& options);

}  // namespace kkadm::cmd
