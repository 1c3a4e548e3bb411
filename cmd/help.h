// kubeadm's help surface over CLI11: `kkadm help [command]`, and the root's flags (-v, --rootfs)
// shown as "Global Flags" in every subcommand's help, since they parse anywhere.
#pragma once

#include <CLI/CLI.hpp>

#include "cmd/context.h"

namespace kkadm::cmd {

// Gives `command` kubeadm's two texts: the description it was added with stays the one line in
// its parent's list of commands; `long_text` replaces it at the top of its own help.
void DescribeCommand(CLI::App& command, std::string long_text);

// Adds `help [command...]` under root: the named command's help (as its --help prints it), or
// cobra's "Unknown help topic [`<words>`]" and the root's help.
void AddHelpCommand(CLI::App& root, CommandContext& context);

// Makes every command below root (and the ones built later below them, which inherit it) end its
// help with the root's flags. Call once every command is added.
void ShowGlobalFlagsInHelp(CLI::App& root);

}  // namespace kkadm::cmd
