// The root command: global flags, subcommands, and turning errors into exit codes.
#include "cmd/root.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/util/machine_real.h"
#include "app/util/printable.h"
#include "app/util/printer.h"
#include "cmd/certs.h"
#include "cmd/command_tree.h"
#include "cmd/completion.h"
#include "cmd/config.h"
#include "cmd/context.h"
#include "cmd/etcd_snapshot.h"
#include "cmd/help.h"
#include "cmd/host_factory.h"
#include "cmd/images.h"
#include "cmd/init.h"
#include "cmd/join.h"
#include "cmd/kubeconfig_user.h"
#include "cmd/release_versions.h"
#include "cmd/reset.h"
#include "cmd/status.h"
#include "cmd/token.h"
#include "cmd/upgrade_plan.h"
#include "cmd/version.h"

namespace kkadm::cmd {
namespace {

int ExitCodeFor(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk:
      return kExitOk;
    case StatusCode::kInvalidArgument:
      return kExitValidation;
    case StatusCode::kInternal:
      return kExitInternal;
    default:
      return kExitError;
  }
}

void SetUpLogging(int verbosity) {
  // Logs go to stderr, like klog's: stdout carries only what a command prints for scripts
  // (`TOKEN=$(kkadm token create)` must get the token alone at any verbosity). Coloured on a
  // terminal unless NO_COLOR is set to anything (no-color.org).
  const std::optional<std::string> no_color = util::RealMachine().Getenv("NO_COLOR");
  spdlog::set_default_logger(no_color && !no_color->empty() ? spdlog::stderr_logger_mt("kkadm")
                                                            : spdlog::stderr_color_mt("kkadm"));
  // -v 0..1: warnings; 2..4: info; 5+: debug (kubeadm's klog levels, roughly).
  spdlog::set_pattern("%^%L%m%d %H:%M:%S.%f%$ %v");
  spdlog::set_level(verbosity >= 5   ? spdlog::level::debug
                    : verbosity >= 2 ? spdlog::level::info
                                     : spdlog::level::warn);
}

// `kkadm token` runs against the node under --rootfs, known once the command line is parsed: its
// host is made on the first call and kept for the run.
HostProvider TokenHost(CommandContext& context) {
  struct TokenHostParts {
    util::RealMachine machine;
    util::Printer printer;
    std::unique_ptr<OwnedHost> host;
  };
  auto made =
      std::make_shared<TokenHostParts>(TokenHostParts{{}, util::Printer(context.err), nullptr});
  return [&context, made]() -> Result<util::Host*> {
    if (!made->host) {
      HostOptions options;
      options.rootfs = context.global.rootfs;
      Result<std::unique_ptr<OwnedHost>> host = MakeHost(options, made->machine, made->printer);
      if (!host) return host.error();
      made->host = std::move(*host);
    }
    return &made->host->host();
  };
}

// True when the command line asks for help on every command or for the whole tree (--help-all,
// `kkadm help ...`, `kkadm completion ...`): the phase subcommands must exist before parsing.
bool WantsAllCommands(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--help-all") return true;
  }
  // The first word that is not a global flag or its value names the command.
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-v" || args[i] == "--v" || args[i] == "--rootfs") {
      ++i;
    } else if (args[i].rfind('-', 0) != 0) {
      return args[i] == "help" || args[i] == "completion";
    }
  }
  return false;
}

// A parse error: cobra's "unknown command" (exit 1, as kubeadm) when a word names no command,
// else CLI11's message on one line, as every other bad input (exit 3).
int ParseFailure(CLI::App& app, const std::vector<std::string>& args, const CLI::ParseError& e,
                 std::ostream& err) {
  if (std::optional<UnknownCommand> unknown = FindUnknownCommand(app, args)) {
    std::string message = UnknownCommandMessage(*unknown);
    err << "error: " << message << (message.back() == '\n' ? "" : "\n");
    return kExitError;
  }
  err << "error: " << e.what() << '\n';
  return kExitValidation;
}

}  // namespace

int Main(int argc, char** argv) {
  CommandContext context(std::cout, std::cerr);
  context.release_versions = ReleaseVersionsFromEnvironment(util::RealMachine());
  const std::vector<std::string> args(argv + 1, argv + argc);
  context.global.all_commands_now = WantsAllCommands(args);
  CLI::App app("kkadm: easily bootstrap a secure Kubernetes cluster, phase by phase", "kkadm");
  app.require_subcommand(1);
  // Inherited by every subcommand: a flag it does not know goes up to its parent, so the global
  // flags below parse anywhere (`kkadm token list --rootfs /mnt/node`), as cobra's persistent ones.
  app.fallthrough();
  app.set_help_all_flag("--help-all", "Show help for every command");
  app.add_option("-v,--v", context.global.verbosity, "Number for the log level verbosity")
      ->check(CLI::Range(0, 10));
  app.add_option("--rootfs", context.global.rootfs,
                 "The path to the 'real' host root filesystem; node paths are written under it")
      ->check([](const std::string& v) {  // "" would silently mean this machine's own root
        return v.empty() ? "must not be empty (without --rootfs, the node is this machine)" : "";
      });
  app.parse_complete_callback([&context] { SetUpLogging(context.global.verbosity); });

  InitCommand init(context);
  init.Bind(app);
  JoinCommand join(context);
  join.Bind(app);
  ResetCommand reset(context);
  reset.Bind(app);
  AddConfigCommand(app, context);
  AddImagesCommand(*app.get_subcommand("config"), context);
  AddTokenCommand(app, context, TokenHost(context));
  AddCertsCommand(app, context);
  AddKubeconfigCommand(app, context);
  AddEtcdCommand(app, context);
  AddUpgradeCommand(app, context, TokenHost(context));
  AddStatusCommand(app, context);
  AddVersionCommand(app, context);
  AddCompletionCommand(app, context);
  AddHelpCommand(app, context);
  ShowGlobalFlagsInHelp(app);

  if (!context.status.ok()) {
    // A command could not be set up: a bug in kkadm, not in the user's input.
    context.err << "kkadm: internal error: " << context.status.message() << '\n';
    return kExitInternal;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      return app.exit(e, context.out, context.err);
    }
    return ParseFailure(app, args, e, context.err);
  }
  if (!context.status.ok()) {
    const std::string& message = context.status.message();
    // The engine already says "error execution phase ...".
    // Messages quote files and servers: nothing in them may drive the terminal.
    context.err << (message.rfind("error", 0) == 0 ? "" : "error: ")
                << util::EscapeNonPrintable(message, /*keep_newlines=*/true) << '\n';
    return context.exit_code != 0 ? context.exit_code : ExitCodeFor(context.status);
  }
  return kExitOk;
}

}  // namespace kkadm::cmd
