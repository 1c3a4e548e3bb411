// `kkadm config print init-defaults|join-defaults` and `kkadm config validate --config F`.
#pragma once

#include <CLI/CLI.hpp>

namespace kkadm::cmd {

struct CommandContext;
// Registers `config` under `parent`. Failures go to context.status (never exit).
void AddConfigCommand(CLI::App& parent, CommandContext& context);

}  // namespace kkadm::cmd
