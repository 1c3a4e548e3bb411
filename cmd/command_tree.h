// kkadm's CLI11 command tree read the way cobra reads its commands: the command some words name,
// the first word that names no command where one was expected ("unknown command"), and each
// command's subcommands and flags, for `kkadm help`, the suggestions and the completion scripts.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kkadm::cmd {

// The subcommands of `app` that are commands (CLI11 models option groups as nameless ones).
std::vector<CLI::App*> NamedSubcommands(CLI::App& app);

// "kkadm init phase": the names from the root down to `app`.
std::string CommandPath(const CLI::App& app);

// The command `words` name below `root` (a name or an alias at each level); nullptr when one of
// them names none.
CLI::App* FindCommand(CLI::App& root, const std::vector<std::string>& words);

struct UnknownCommand {
  std::string word;
  CLI::App* parent;  // the command that has no subcommand of that name
};

// The first word of `args` (the command line without the program name) that stands where a
// subcommand is expected and names none: below a command with subcommands and no positional
// arguments. Flag values are skipped, as CLI11 parses them.
std::optional<UnknownCommand> FindUnknownCommand(CLI::App& root,
                                                 const std::vector<std::string>& args);

// Cobra's message for it: `unknown command "<word>" for "<path>"`, then "Did you mean this?" and
// the close names when there are some.
std::string UnknownCommandMessage(const UnknownCommand& unknown);

}  // namespace kkadm::cmd
