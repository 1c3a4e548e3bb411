// `kkadm kubeconfig user --client-name N [--org O]... [--validity-period D] [--config F]`: a
// kubeconfig for an additional user with a client certificate signed by the cluster CA of the
// node under --rootfs, printed on stdout (kubeadm's cmd/kubeconfig.go). Nothing is written.
#pragma once

#include <CLI/CLI.hpp>

namespace kkadm::cmd {

struct CommandContext;

void AddKubeconfigCommand(CLI::App& root, CommandContext& context);

}  // namespace kkadm::cmd
