// `kkadm init`: make this machine the first control-plane node, phase by phase.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

#include "app/phases/init/init_data.h"
#include "app/phases/waitcontrolplane/waiter.h"
#include "app/util/printer.h"
#include "app/workflow/cli.h"
#include "app/workflow/observer_chain.h"
#include "app/workflow/runner.h"
#include "cmd/cluster_access.h"
#include "cmd/context.h"
#include "cmd/event_output.h"
#include "cmd/hook_flags.h"
#include "cmd/host_factory.h"
#include "cmd/init_options.h"
#include "cmd/journaled_host.h"

namespace kkadm::cmd {

class InitCommand {
 public:
  explicit InitCommand(CommandContext& context);
  InitCommand(const InitCommand&) = delete;
  InitCommand& operator=(const InitCommand&) = delete;

  // Adds `init`, its flags and its `phase` subcommands under parent.
  void Bind(CLI::App& parent);

 private:
  // The one place that reads the config file, applies defaults and flags, validates, and builds
  // the host seams: after it, data_ is trusted.
  Status MakeInitData();
  // The host seams, the waiter and the cluster access: real ones, or the dry run's.
  Status MakeSeams();
  Result<std::vector<std::string>> ResolveSkipPhases(const std::vector<std::string>& flag);
  void Done(const Status& status, const std::string& failed_phase);

  CommandContext& context_;
  EventOutput event_output_;  // before printer_, which writes to its human() stream
  util::Printer printer_;
  InitOptions options_;
  phases::InitData data_;
  std::unique_ptr<util::Machine> machine_;
  std::unique_ptr<OwnedHost> host_;
  std::unique_ptr<JournaledHost> journaled_;  // over host_
  std::unique_ptr<phases::Waiter> waiter_;
  std::unique_ptr<KubeconfigClusterAccess> access_;
  workflow::FlagSet flags_;
  // What watches the run, outermost first: the journal, progress events, hooks.
  workflow::ObserverChain observers_;
  HookOptions hook_options_;
  CommandHooks hooks_;  // innermost of observers_
  workflow::Runner runner_;
};

}  // namespace kkadm::cmd
