// `kkadm reset`: undo what `kkadm init` / `kkadm join` (or kubeadm) did to this machine, phase by
// phase, and say exactly what could not be undone.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>

#include "app/phases/etcd/etcd_member_removal.h"
#include "app/phases/journal/journal.h"
#include "app/phases/reset/reset_data.h"
#include "app/util/node_lock.h"
#include "app/util/printer.h"
#include "app/workflow/cli.h"
#include "app/workflow/observer_chain.h"
#include "app/workflow/runner.h"
#include "cmd/context.h"
#include "cmd/event_output.h"
#include "cmd/hook_flags.h"
#include "cmd/host_factory.h"
#include "cmd/reset_journal.h"
#include "cmd/reset_options.h"

namespace kkadm::cmd {

// The seams reset uses besides the Host; the command builds real ones unless a test hands in
// others.
struct ResetSeams {
  std::unique_ptr<util::Machine> machine;
  std::unique_ptr<util::Terminal> terminal;
};

class ResetCommand {
 public:
  explicit ResetCommand(CommandContext& context, ResetSeams seams = {});
  ResetCommand(const ResetCommand&) = delete;
  ResetCommand& operator=(const ResetCommand&) = delete;

  // Adds `reset`, its flags and its `phase` subcommands under parent.
  void Bind(CLI::App& parent);

 private:
  // The one place that reads the config file, applies flags, validates, reads the cluster's
  // configuration (when a kubeconfig is there) and builds the seams: after it, data_ is trusted.
  Status MakeResetData();
  void FetchClusterConfiguration();
  Status MakeSeams();
  void LoadJournal();
  Result<std::vector<std::string>> ResolveSkipPhases(const std::vector<std::string>& flag);
  void Done(const Status& status, const std::string& failed_phase);

  CommandContext& context_;
  EventOutput event_output_;  // before printer_, which writes to its human() stream
  util::Printer printer_;
  ResetOptions options_;
  phases::ResetData data_;
  ResetSeams seams_;
  std::unique_ptr<OwnedHost> host_;
  std::unique_ptr<phases::EtcdMemberRemover> etcd_;
  std::optional<util::NodeLock> lock_;                 // held while reset runs
  std::unique_ptr<phases::journal::Journal> journal_;  // the node's, when it has kkadm's state
  std::unique_ptr<ResetRecorder> recorder_;            // reset's own records in it
  CLI::App* command_ = nullptr;
  workflow::FlagSet flags_;
  // What watches the run, outermost first: the journal, progress events, hooks.
  workflow::ObserverChain observers_;
  HookOptions hook_options_;
  CommandHooks hooks_;  // innermost of observers_
  workflow::Runner runner_;
};

}  // namespace kkadm::cmd
