// `kkadm completion bash|zsh|fish`: shell completion scripts generated from kkadm's own command
// tree (commands, phases, flags and the values of flags that take one of a few), so they can
// never disagree with the binary.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/util/status.h"
#include "cmd/context.h"

namespace kkadm::cmd {

// The completion script for `shell` ("bash", "zsh" or "fish") of every command below root, which
// must be fully built (phase subcommands included). InvalidArgument `unsupported shell type "x"`.
Result<std::string> CompletionScript(CLI::App& root, const std::string& shell);

// Adds `completion SHELL` under root, with kubeadm's errors for a missing or extra argument.
void AddCompletionCommand(CLI::App& root, CommandContext& context);

}  // namespace kkadm::cmd
