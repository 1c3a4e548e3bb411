// `kkadm token create|list|delete|generate|inspect`: managing bootstrap tokens (kubeadm's
// cmd/token.go) and kkadm's join tokens (docs/join-token.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "app/util/host.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct CommandContext;

// The host the token commands run against (the node's files, the clock for expiry times, the
// network for the API client), made on first call: --rootfs is known only once the command line
// is parsed. Main's comes from MakeHost; tests hand out one over fakes.
using HostProvider = std::function<Result<util::Host*>()>;

struct TokenCreateOptions {
  std::string token;  // positional; generated when empty
  std::string ttl = "24h0m0s";
  std::vector<std::string> usages = {"signing", "authentication"};
  std::vector<std::string> groups = {"system:bootstrappers:kubeadm:default-node-token"};
  std::string description;
  bool print_join_command = false;  // kubeadm's flag form instead of the join token
  bool print_cloud_init = false;    // cloud-init user-data instead of the join token
  // A control-plane token: the certificates are uploaded again, encrypted with `certificate_key`
  // (generated when empty), which the join token carries. A given key implies control_plane.
  bool control_plane = false;
  std::string certificate_key;
  std::string cri_socket;  // --print-cloud-init; "" = the control-plane nodes' (ClusterCriSocket)
  std::string kubeconfig = "/etc/kubernetes/admin.conf";
};

// Creates the token's Secret (AlreadyExists if its id is taken) and prints the join token
// ("kk1.…": endpoints, the token, the CA pins [, the certificate key]), kubeadm's join command with
// print_join_command, or cloud-init user-data with print_cloud_init. With control_plane, the
// control-plane certificates are uploaded again (kubeadm-certs, deleted with its 2 h owner token)
// and their "[upload-certs]" lines go to `err`. Everything that can be refused (flags, the admin
// kubeconfig, the cluster's configuration, the CA key on this node) is checked before the Secret is
// created; the output holds secrets, errors never do.
Status TokenCreate(const TokenCreateOptions& options, util::Host& host, std::ostream& out,
                   std::ostream& err);

// Decodes the join token `args` holds (exactly one) and prints its fields, secrets redacted:
// "text", or "json"/"yaml" objects with the fields formatVersion, endpoints, tokenID,
// bootstrapToken, caCertHashes, controlPlane [, certificateKey] (docs/token.md). No network.
// InvalidArgument, never echoing the argument, when it is not a valid join token.
Status TokenInspect(const std::vector<std::string>& args, const std::string& output,
                    std::ostream& out);

// Prints every bootstrap token Secret of kube-system: kubeadm's table (TOKEN TTL EXPIRES USAGES
// DESCRIPTION EXTRA GROUPS) for "text", output.kubeadm.k8s.io/v1alpha3 BootstrapToken objects for
// "json" and "yaml". Secrets that are not valid tokens are reported on `err` and skipped.
Status TokenList(const std::string& kubeconfig, const std::string& output, util::Host& host,
                 std::ostream& out, std::ostream& err);

// Deletes the Secret of each token id or full token, printing `bootstrap token "<id>" deleted`.
Status TokenDelete(const std::string& kubeconfig, const std::vector<std::string>& ids_or_tokens,
                   util::Host& host, std::ostream& out);

// The API client of the kubeconfig file `kubeconfig` on the host's node (admin.conf by default),
// for every token command that talks to the cluster.
Result<std::unique_ptr<util::KubeClient>> TokenApiClient(util::Host& host,
                                                         const std::string& kubeconfig);

// Adds `token` and its subcommands under `root`.
void AddTokenCommand(CLI::App& root, CommandContext& context, HostProvider host);

// The subcommands `token create` (cmd/token_create.cc) and `token inspect` (cmd/token_inspect.cc)
// under `token`; `kubeconfig` is the parent's --kubeconfig.
void AddTokenCreateCommand(CLI::App& token, CommandContext& context,
                           std::shared_ptr<std::string> kubeconfig,
                           std::shared_ptr<HostProvider> host);
void AddTokenInspectCommand(CLI::App& token, CommandContext& context);

}  // namespace kkadm::cmd
