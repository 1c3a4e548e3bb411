// The root command: global flags, subcommands, and turning errors into exit codes.
#include "cmd/root.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <string_view>

#include "app/util/machine_real.h"
#include "app/util/printer.h"
#include "cmd/config.h"
#include "cmd/context.h"
#include "cmd/host_factory.h"
#include "cmd/images.h"
#include "cmd/init.h"
#include "cmd/join.h"
#include "cmd/release_versions.h"
#include "cmd/reset.h"
#include "cmd/token.h"
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
  // (`TOKEN=$(kkadm token create)` must get the token alone at any verbosity).
  spdlog::set_default_logger(spdlog::stderr_color_mt("kkadm"));
  // -v 0..1: warnings; 2..4: info; 5+: debug (kubeadm's klog levels, roughly).
  spdlog::set_pattern("%^%L%m%d %H:%M:%S.%f%$ %v");
  spdlog::set_level(verbosity >= 5   ? spdlog::level::debug
                    : verbosity >= 2 ? spdlog::level::info
                                     : spdlog::level::warn);
}

// `kkadm token` runs against the node under --rootfs, known once the command line is parsed: its
// host is made on the first call and kept for the run.
HostProvider TokenHost(CommandContext& context) {
  struct Made {
    util::RealMachine machine;
    util::Printer printer;
    std::unique_ptr<OwnedHost> host;
  };
  auto made = std::make_shared<Made>(Made{{}, util::Printer(context.err), nullptr});
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

}  // namespace

int Main(int argc, char** argv) {
  CommandContext context(std::cout, std::cerr);
  context.release_versions = ReleaseVersionsFromEnvironment(util::RealMachine());
  context.global.help_all = std::any_of(
      argv + 1, argv + argc, [](const char* arg) { return std::string_view(arg) == "--help-all"; });
  CLI::App app("kkadm: easily bootstrap a secure Kubernetes cluster, phase by phase", "kkadm");
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every command");
  app.add_option("-v,--v", context.global.verbosity, "Number for the log level verbosity")
      ->check(CLI::Range(0, 10));
  app.add_option("--rootfs", context.global.rootfs,
                 "The path to the 'real' host root filesystem; node paths are written under it");
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
  AddVersionCommand(app, context);

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
    // One line, like every other bad input; `--help` is a flag away.
    context.err << "error: " << e.what() << '\n';
    return kExitValidation;
  }
  if (!context.status.ok()) {
    const std::string& message = context.status.message();
    // The engine already says "error execution phase ...".
    context.err << (message.rfind("error", 0) == 0 ? "" : "error: ") << message << '\n';
    return context.exit_code != 0 ? context.exit_code : ExitCodeFor(context.status);
  }
  return kExitOk;
}

}  // namespace kkadm::cmd
