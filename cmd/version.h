// `kkadm version`.
#pragma once

#include <CLI/CLI.hpp>

namespace kkadm::cmd {

struct CommandContext;
void AddVersionCommand(CLI::App& parent, CommandContext& context);

}  // namespace kkadm::cmd
