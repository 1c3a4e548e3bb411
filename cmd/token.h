// `kkadm token create|list|delete|generate`: managing bootstrap tokens (kubeadm's cmd/token.go).
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct CommandContext;

// What the token commands need from outside: a client for a kubeconfig path (the real libcurl one,
// a fake in tests), the clock for expiry times, and the files (the kubeconfig for join commands).
struct TokenCommandDeps {
  std::function<Result<std::unique_ptr<util::KubeClient>>(const std::string& kubeconfig_path)>
      client_factory;
  util::Clock* clock = nullptr;
  // The node's files (--rootfs is known only once the command line is parsed).
  std::function<util::FileSystem&()> fs;
};

struct TokenCreateOptions {
  std::string token;  // positional; generated when empty
  std::string ttl = "24h0m0s";
  std::vector<std::string> usages = {"signing", "authentication"};
  std::vector<std::string> groups = {"system:bootstrappers:kubeadm:default-node-token"};
  std::string description;
  bool print_join_command = false;
  std::string certificate_key;  // with --print-join-command: the control-plane join command
  std::string kubeconfig = "/etc/kubernetes/admin.conf";
};

// Go's time.ParseDuration for the units kkadm accepts ("24h", "1h30m", "90s", "500ms", "0").
Result<std::chrono::milliseconds> ParseGoDuration(const std::string& text);

// Creates the token's Secret (AlreadyExists if its id is taken) and prints the token, or the
// join command with --print-join-command.
Status TokenCreate(const TokenCreateOptions& options, const TokenCommandDeps& deps, std::ostream& out);

// Prints every bootstrap token Secret of kube-system: kubeadm's table (TOKEN TTL EXPIRES USAGES
// DESCRIPTION EXTRA GROUPS) for "text", output.kubeadm.k8s.io/v1alpha3 BootstrapToken objects for
// "json" and "yaml". Secrets that are not valid tokens are reported on `err` and skipped.
Status TokenList(const std::string& kubeconfig, const std::string& output, const TokenCommandDeps& deps,
                 std::ostream& out, std::ostream& err);

// Deletes the Secret of each token id or full token, printing `bootstrap token "<id>" deleted`.
Status TokenDelete(const std::string& kubeconfig, const std::vector<std::string>& ids_or_tokens,
                   const TokenCommandDeps& deps, std::ostream& out);

// Adds `token` and its subcommands under `root`.
void AddTokenCommand(CLI::App& root, CommandContext& context, TokenCommandDeps deps);

}  // namespace kkadm::cmd
