// Walks of the CLI11 command tree (cmd/command_tree.h).
#include "cmd/command_tree.h"

#include "app/util/suggestions.h"

namespace kkadm::cmd {
namespace {

CLI::App* FindSubcommand(CLI::App& app, const std::string& word) {
  for (CLI::App* sub : NamedSubcommands(app)) {
    if (sub->check_name(word)) return sub;
  }
  return nullptr;
}

// The option `name` ("--config", "-v") of `app` or of a command above it: subcommands fall
// through to their parents, so the root's flags parse anywhere.
const CLI::Option* FindOption(CLI::App& app, const std::string& name) {
  for (CLI::App* at = &app; at != nullptr; at = at->get_parent()) {
    if (const CLI::Option* option = at->get_option_no_throw(name)) return option;
  }
  return nullptr;
}

bool HasPositionals(CLI::App& app) {
  auto positional = [](const CLI::Option* o) { return o->get_positional(); };
  if (!app.get_options(positional).empty()) return true;
  // Option groups hold options too (init's and join's "Flags").
  for (CLI::App* group : app.get_subcommands([](CLI::App* s) { return s->get_name().empty(); })) {
    if (HasPositionals(*group)) return true;
  }
  return false;
}

bool ExpectsSubcommand(CLI::App& app) {
  return !NamedSubcommands(app).empty() && !HasPositionals(app);
}

// "--config=x" -> "--config", "-v5" -> "-v".
std::string OptionName(const std::string& arg) {
  if (arg[1] != '-') return arg.substr(0, 2);
  return arg.substr(0, arg.find('='));
}

// True when `arg`, a known option, takes the next argument as its value ("--config x", "-v 5";
// not "--config=x", "-v5" or a flag). A flag expects no value (CLI11's expected(0)) though its
// type size is 1: "init --dry-run --rootfs ''" must not take --rootfs for --dry-run's value.
bool TakesNextArgument(const CLI::Option& option, const std::string& arg) {
  if (arg.find('=') != std::string::npos) return false;
  if (arg[1] != '-' && arg.size() > 2) return false;
  return option.get_items_expected_max() > 0;
}

}  // namespace

std::vector<CLI::App*> NamedSubcommands(CLI::App& app) {
  return app.get_subcommands([](CLI::App* sub) { return !sub->get_name().empty(); });
}

std::string CommandPath(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent == nullptr ? app.get_name() : CommandPath(*parent) + " " + app.get_name();
}

CLI::App* FindCommand(CLI::App& root, const std::vector<std::string>& words) {
  CLI::App* app = &root;
  for (const std::string& word : words) {
    app = FindSubcommand(*app, word);
    if (app == nullptr) return nullptr;
  }
  return app;
}

std::optional<UnknownCommand> FindUnknownCommand(CLI::App& root,
                                                 const std::vector<std::string>& args) {
  CLI::App* app = &root;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() > 1 && arg[0] == '-') {
      const CLI::Option* option = FindOption(*app, OptionName(arg));
      // After an unknown flag the next word may be its value: CLI11's message stands.
      if (option == nullptr) return std::nullopt;
      if (TakesNextArgument(*option, arg)) ++i;
      continue;
    }
    if (CLI::App* sub = FindSubcommand(*app, arg)) {
      app = sub;
    } else if (ExpectsSubcommand(*app)) {
      return UnknownCommand{arg, app};
    }
  }
  return std::nullopt;
}

std::string UnknownCommandMessage(const UnknownCommand& unknown) {
  std::vector<std::string> names;
  for (CLI::App* sub : NamedSubcommands(*unknown.parent)) {
    // cobra never suggests its help command.
    if (sub->get_name() != "help") names.push_back(sub->get_name());
  }
  return "unknown command \"" + unknown.word + "\" for \"" + CommandPath(*unknown.parent) + "\"" +
         util::DidYouMeanBlock(util::SuggestionsFor(unknown.word, names));
}

}  // namespace kkadm::cmd
