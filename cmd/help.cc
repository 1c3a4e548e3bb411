// `kkadm help` and the "Global Flags" section of subcommand help.
#include "cmd/help.h"

#include <memory>
#include <string>
#include <vector>

#include "cmd/command_tree.h"

namespace kkadm::cmd {
namespace {

// Wraps a command's own formatter: its help, then the root's flags before the footer (kubeadm
// shows them after the command's flags).
class GlobalFlagsFormatter final : public CLI::Formatter {
 public:
  GlobalFlagsFormatter(std::shared_ptr<CLI::FormatterBase> inner, const CLI::App& root)
      : inner_(std::move(inner)), root_(root) {}

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    std::string help = inner_->make_help(app, std::move(name), mode);
    if (app == &root_ || mode != CLI::AppFormatMode::Normal) return help;
    std::string section = "\nGlobal Flags:\n";
    for (const CLI::Option* option : root_.get_options()) {
      if (option == root_.get_help_ptr() || option == root_.get_help_all_ptr()) continue;
      section += make_option(option, false);
    }
    const std::string& footer = app->get_footer();
    const std::size_t at = footer.empty() ? std::string::npos : help.rfind(footer);
    return at == std::string::npos ? help + section : help.insert(at, section.substr(1) + "\n");
  }

 private:
  std::shared_ptr<CLI::FormatterBase> inner_;
  const CLI::App& root_;
};

// Wraps `owner`'s formatter: its own help starts with `long_text` instead of its one-line
// description (the commands built below it inherit the wrapper and are left as they are).
class LongDescriptionFormatter final : public CLI::Formatter {
 public:
  LongDescriptionFormatter(std::shared_ptr<CLI::FormatterBase> inner, const CLI::App& owner,
                           std::string long_text)
      : inner_(std::move(inner)), owner_(owner), long_text_(std::move(long_text)) {}

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    std::string help = inner_->make_help(app, std::move(name), mode);
    const std::string& summary = app->get_description();
    if (app != &owner_ || mode != CLI::AppFormatMode::Normal || help.rfind(summary, 0) != 0) {
      return help;
    }
    return help.replace(0, summary.size(), long_text_);
  }

 private:
  std::shared_ptr<CLI::FormatterBase> inner_;
  const CLI::App& owner_;
  std::string long_text_;
};

void WrapFormatters(CLI::App& app, const CLI::App& root) {
  for (CLI::App* sub : NamedSubcommands(app)) {
    sub->formatter(std::make_shared<GlobalFlagsFormatter>(sub->get_formatter(), root));
    WrapFormatters(*sub, root);
  }
}

// cobra's %#q of a []string: [`a` `b`].
std::string QuotedWords(const std::vector<std::string>& words) {
  std::string out = "[";
  for (std::size_t i = 0; i < words.size(); ++i) out += (i > 0 ? " `" : "`") + words[i] + "`";
  return out + "]";
}

// What `<command> --help` prints. (CLI11's App::help would describe the command being parsed,
// which is `help` itself.)
std::string HelpOf(const CLI::App& command) {
  return command.get_formatter()->make_help(&command, CommandPath(command),
                                            CLI::AppFormatMode::Normal);
}

}  // namespace

void DescribeCommand(CLI::App& command, std::string long_text) {
  command.formatter(std::make_shared<LongDescriptionFormatter>(command.get_formatter(), command,
                                                               std::move(long_text)));
}

void AddHelpCommand(CLI::App& root, CommandContext& context) {
  auto words = std::make_shared<std::vector<std::string>>();
  CLI::App* help = root.add_subcommand("help", "Help about any command");
  help->add_option("command", *words, "The command to describe, e.g. `init phase certs`");
  help->callback([&root, &context, words] {
    CLI::App* command = FindCommand(root, *words);
    if (command == nullptr) {
      context.out << "Unknown help topic " << QuotedWords(*words) << "\n" << HelpOf(root);
      return;
    }
    context.out << HelpOf(*command);
  });
}

void ShowGlobalFlagsInHelp(CLI::App& root) { WrapFormatters(root, root); }

}  // namespace kkadm::cmd
