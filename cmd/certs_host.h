// What the certs and kubeconfig-user commands share: the node they run against (the host rooted at
// --rootfs, made after parsing) and the --config, --cert-dir and --kubeconfig flags.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "app/config/types.h"
#include "app/util/host.h"
#include "app/util/status.h"
#include "cmd/certs.h"

namespace kkadm::cmd {

struct CommandContext;

// Runs `run` over the host of --rootfs; MakeHost's error when it cannot be made. With
// `dry_run_out`, a dry run: the host writes to a temporary overlay and says there what it would
// write.
Status WithCertsHost(CommandContext& context, const std::function<Status(util::Host&)>& run,
                     std::ostream* dry_run_out = nullptr);

// kubeadm's LoadOrDefaultInitConfiguration: the --config file (defaulted and validated as init
// does), else the defaults of this machine (its default-route address is the local API endpoint);
// without a file the Kubernetes version is kkadm's own, never looked up.
Result<config::InitConfiguration> LoadInitForCerts(const std::string& config_path,
                                                   CommandContext& context);

// --config, --cert-dir and --kubeconfig, as kubeadm's certs subcommands have them.
void AddCertsConfigFlags(CLI::App& cmd, CertsConfigOptions& options);

}  // namespace kkadm::cmd
