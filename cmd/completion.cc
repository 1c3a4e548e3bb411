// Completion scripts from the command tree: one table of commands and flags, written out as
// shell functions (bash, and zsh which shares them) or `complete` lines (fish).
#include "cmd/completion.h"

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "app/util/strings.h"
#include "cmd/command_tree.h"

namespace kkadm::cmd {
namespace {

struct CompletionFlag {
  std::vector<std::string> names;    // "--output", "-o"
  bool takes_value = false;          // completes a value (a file, unless choices are known)
  std::vector<std::string> choices;  // from a CLI11 IsMember check, e.g. {text,json,yaml}
  std::string description;
};

struct CompletionCommand {
  std::string path;  // "kkadm init phase"
  std::vector<CLI::App*> subcommands;
  std::vector<CompletionFlag> flags;
};

// CLI11 writes an IsMember check into the type name: "TEXT:{text,json,yaml}".
std::vector<std::string> Choices(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::size_t open = type.find(":{");
  const std::size_t close = type.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return util::SplitComma(type.substr(open + 2, close - open - 2));
}

void AddFlags(const CLI::App& app, std::vector<CompletionFlag>& flags) {
  for (const CLI::Option* option : app.get_options()) {
    if (!option->nonpositional() || option->get_group().empty()) continue;  // hidden
    CompletionFlag flag;
    for (const std::string& name : option->get_lnames()) flag.names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) flag.names.push_back("-" + name);
    flag.takes_value = option->get_type_size_max() > 0;
    flag.choices = Choices(*option);
    flag.description = option->get_description();
    flags.push_back(std::move(flag));
  }
}

// Every command below (and including) app, parents first; each with its own flags, those of its
// option groups, and the root's (they parse anywhere).
void Collect(CLI::App& app, const CLI::App& root, std::vector<CompletionCommand>& out) {
  CompletionCommand command{CommandPath(app), NamedSubcommands(app), {}};
  AddFlags(app, command.flags);
  for (CLI::App* group : app.get_subcommands([](CLI::App* s) { return s->get_name().empty(); })) {
    AddFlags(*group, command.flags);
  }
  if (&app != &root) AddFlags(root, command.flags);
  // A copy: the recursion grows `out`, which moves its elements.
  const std::vector<CLI::App*> subcommands = command.subcommands;
  out.push_back(std::move(command));
  for (CLI::App* sub : subcommands) Collect(*sub, root, out);
}

// The first line of a description, for the one-line lists of fish.
std::string Summary(const std::string& description) {
  return description.substr(0, description.find('\n'));
}

std::string SubcommandNames(const CompletionCommand& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.subcommands) names.push_back(sub->get_name());
  return util::Join(names, " ");
}

std::string FlagNames(const CompletionCommand& command) {
  std::vector<std::string> names;
  for (const CompletionFlag& flag : command.flags)
    names.insert(names.end(), flag.names.begin(), flag.names.end());
  return util::Join(names, " ");
}

// Shell functions both bash and zsh run: a command path's subcommands and flags, the values of a
// flag (status 1 when none are known), and whether a flag takes the next word as its value.
std::string TableFunctions(const std::vector<CompletionCommand>& commands) {
  std::string subcommands, flags, values, takes_value;
  for (const CompletionCommand& command : commands) {
    subcommands += fmt::format("    '{}') echo '{}' ;;\n", command.path, SubcommandNames(command));
    flags += fmt::format("    '{}') echo '{}' ;;\n", command.path, FlagNames(command));
    for (const CompletionFlag& flag : command.flags) {
      for (const std::string& name : flag.names) {
        const std::string key = command.path + " " + name;
        if (!flag.choices.empty())
          values += fmt::format("    '{}') echo '{}' ;;\n", key, util::Join(flag.choices, " "));
        if (flag.takes_value) takes_value += fmt::format("    '{}') return 0 ;;\n", key);
      }
    }
  }
  return fmt::format(
      "__kkadm_subcommands() {{\n  case $1 in\n{}  esac\n}}\n"
      "__kkadm_flags() {{\n  case $1 in\n{}  esac\n}}\n"
      "__kkadm_values() {{\n  case $1 in\n{}    *) return 1 ;;\n  esac\n}}\n"
      "__kkadm_takes_value() {{\n  case $1 in\n{}  esac\n  return 1\n}}\n",
      subcommands, flags, values, takes_value);
}

// Reads the words before the cursor ($1...) into __kkadm_path, the command they name, skipping
// flag values.
constexpr const char* kPathFunction = R"sh(__kkadm_find_path() {
  __kkadm_path=kkadm
  local skip=0 word
  for word in "$@"; do
    if [ "$skip" = 1 ]; then skip=0; continue; fi
    if __kkadm_takes_value "$__kkadm_path $word"; then skip=1; continue; fi
    case " $(__kkadm_subcommands "$__kkadm_path") " in
      *" $word "*) __kkadm_path="$__kkadm_path $word" ;;
    esac
  done
}
)sh";

constexpr const char* kBashDriver = R"sh(__kkadm_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} values
  __kkadm_find_path "${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if values=$(__kkadm_values "$__kkadm_path $prev"); then
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
  elif __kkadm_takes_value "$__kkadm_path $prev"; then
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(__kkadm_flags "$__kkadm_path")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(__kkadm_subcommands "$__kkadm_path")" -- "$cur"))
  fi
}
complete -o default -F __kkadm_complete kkadm
)sh";

constexpr const char* kZshDriver = R"sh(_kkadm() {
  local cur=${words[CURRENT]} prev=${words[CURRENT-1]} values
  __kkadm_find_path "${(@)words[2,CURRENT-1]}"
  if values=$(__kkadm_values "$__kkadm_path $prev"); then
    compadd -- ${=values}
  elif __kkadm_takes_value "$__kkadm_path $prev"; then
    _files
  elif [[ $cur == -* ]]; then
    compadd -- ${=$(__kkadm_flags "$__kkadm_path")}
  else
    compadd -- ${=$(__kkadm_subcommands "$__kkadm_path")}
  fi
}
if [ "$funcstack[1]" = "_kkadm" ]; then _kkadm "$@"; else compdef _kkadm kkadm; fi
)sh";

// Fish quotes: '...' with \' and \\ escaped.
std::string FishQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string FishFlag(const CompletionCommand& command, const CompletionFlag& flag) {
  std::string line = "complete -c kkadm -n " + FishQuoted("__kkadm_at '" + command.path + "'");
  for (const std::string& name : flag.names) {
    line += (name.rfind("--", 0) == 0 ? " -l " : " -s ") + name.substr(name.find_first_not_of('-'));
  }
  if (!flag.choices.empty()) {
    line += " -x -a " + FishQuoted(util::Join(flag.choices, " "));
  } else if (flag.takes_value) {
    line += " -r";
  }
  return line + " -d " + FishQuoted(Summary(flag.description)) + "\n";
}

std::string FishScript(const std::vector<CompletionCommand>& commands) {
  std::string paths, lines;
  for (const CompletionCommand& command : commands) {
    paths += " " + FishQuoted(command.path);
    for (const CLI::App* sub : command.subcommands) {
      lines += "complete -c kkadm -f -n " + FishQuoted("__kkadm_at '" + command.path + "'") +
               " -a " + FishQuoted(sub->get_name()) + " -d " +
               FishQuoted(Summary(sub->get_description())) + "\n";
    }
    for (const CompletionFlag& flag : command.flags) lines += FishFlag(command, flag);
  }
  return "# fish completion for kkadm: kkadm completion fish | source\n"
         "set -g __kkadm_paths" +
         paths +
         "\n"
         "function __kkadm_at\n"
         "    set -l path kkadm\n"
         "    set -l words (commandline -opc)\n"
         "    set -e words[1]\n"
         "    for word in $words\n"
         "        if contains -- \"$path $word\" $__kkadm_paths\n"
         "            set path \"$path $word\"\n"
         "        end\n"
         "    end\n"
         "    test \"$path\" = \"$argv[1]\"\n"
         "end\n" +
         lines;
}

}  // namespace

Result<std::string> CompletionScript(CLI::App& root, const std::string& shell) {
  std::vector<CompletionCommand> commands;
  Collect(root, root, commands);
  const std::string table = TableFunctions(commands) + kPathFunction;
  if (shell == "bash") {
    return "# bash completion for kkadm: source <(kkadm completion bash)\n" + table + kBashDriver;
  }
  if (shell == "zsh") {
    return "#compdef kkadm\n# zsh completion for kkadm: source <(kkadm completion zsh)\n" + table +
           kZshDriver;
  }
  if (shell == "fish") return FishScript(commands);
  return InvalidArgument("unsupported shell type \"" + shell + "\"");
}

void AddCompletionCommand(CLI::App& root, CommandContext& context) {
  auto shells = std::make_shared<std::vector<std::string>>();
  CLI::App* completion = root.add_subcommand(
      "completion", "Output shell completion code for the specified shell (bash, zsh or fish)");
  completion->footer(
      "Load it in the current shell with:\n"
      "  source <(kkadm completion bash)      # or zsh\n"
      "  kkadm completion fish | source\n"
      "or install it: kkadm completion bash > /etc/bash_completion.d/kkadm");
  completion->add_option("shell", *shells, "bash, zsh or fish");
  completion->callback([&root, &context, shells] {
    if (shells->empty()) {
      context.status = InvalidArgument("shell not specified");
    } else if (shells->size() > 1) {
      context.status = InvalidArgument("too many arguments. expected only the shell type");
    } else if (Result<std::string> script = CompletionScript(root, shells->front())) {
      context.out << *script;
    } else {
      context.status = script.error();
    }
  });
}

}  // namespace kkadm::cmd
