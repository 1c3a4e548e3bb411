// `kkadm reset`: binds the flags, builds ResetData once, runs the reset phases, reports.
#include "cmd/reset.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>

#include "app/config/make_config.h"
#include "app/phases/bootstraptoken/join_facts.h"
#include "app/phases/cri/cri_socket.h"
#include "app/phases/preflight/run_checks.h"
#include "app/phases/reset/cleanup_node_phase.h"
#include "app/phases/reset/preflight_phase.h"
#include "app/phases/reset/remove_etcd_member_phase.h"
#include "app/util/ascii.h"
#include "app/util/machine_real.h"
#include "app/util/network.h"
#include "app/util/suggestions.h"
#include "app/util/terminal_real.h"
#include "build_info.h"
#include "cmd/config_file.h"
#include "cmd/flag_fields.h"
#include "cmd/help.h"
#include "cmd/reset_summary.h"
#include "cmd/root.h"

namespace kkadm::cmd {
namespace {

std::vector<workflow::Phase> ResetPhases(phases::ResetData& data) {
  return {phases::NewResetPreflightPhase(data), phases::NewRemoveEtcdMemberPhase(data),
          phases::NewCleanupNodePhase(data)};
}

// A reset must go on when the API server is gone: one short try, not kubeadm's minute of retries.
constexpr std::chrono::seconds kApiRetryTimeout{2};
constexpr std::chrono::seconds kApiRequestTimeout{3};

ResetSeams WithDefaults(ResetSeams seams) {
  if (!seams.machine) seams.machine = std::make_unique<util::RealMachine>();
  if (!seams.terminal) seams.terminal = std::make_unique<util::RealTerminal>();
  return seams;
}

}  // namespace

ResetCommand::ResetCommand(CommandContext& context, ResetSeams seams)
    : context_(context),
      event_output_(context, "reset"),
      printer_(event_output_.human()),
      seams_(WithDefaults(std::move(seams))),
      runner_(ResetPhases(data_)) {
  RegisterResetFlags(flags_, options_);
  RegisterHookFlags(flags_, hook_options_);
  event_output_.RegisterFlags(flags_);
  runner_.SetDataInitializer([this] { return MakeResetData(); });
  runner_.SetUnknownNameHint(util::DidYouMeanHint);
}

void ResetCommand::Bind(CLI::App& parent) {
  command_ = parent.add_subcommand(
      "reset",
      "Performs a best effort revert of changes made to this host by 'kkadm init' or 'kkadm join'");
  workflow::BindOptions options;
  options.use = "reset";
  options.phase_commands_now = context_.global.all_commands_now;
  options.every_phase_flags = EventOutput::FlagNames();
  AppendHookFlagNames(options.every_phase_flags);
  options.on_done = [this](const Status& s, const std::string& phase) {
    const Status synced = SyncNodeFiles(host_.get(), s);
    Done(synced, phase);
    // Done may find the reset incomplete.
    event_output_.Finish(synced.ok() ? context_.status : synced, phase);
  };
  options.resolve_skip_phases = [this](const std::vector<std::string>& flag) {
    return ResolveSkipPhases(flag);
  };
  if (Status s = workflow::BindToCommand(*command_, runner_, flags_, std::move(options)); !s.ok()) {
    context_.status = s;
  }
  // After binding, which sets the command's formatter.
  DescribeCommand(
      *command_,
      "Performs a best effort revert of changes made to this host by 'kkadm init' or 'kkadm "
      "join'.\n"
      "Whatever cannot be undone is listed at the end, and the exit code is then 1.\n"
      "Phases can be run alone with 'kkadm reset phase <name>' and left out with --skip-phases.");
}

Status ResetCommand::MakeResetData() {
  KKADM_RETURN_IF_ERROR(event_output_.Start());
  Result<std::optional<config::ConfigSource>> file = ReadConfigFile(options_.config_path);
  if (!file) return file.error();
  Result<config::LoadedReset> loaded = config::MakeResetConfiguration(
      *file, options_.flags,
      phases::cri::NodeCriSocketDetector(*seams_.machine, context_.global.rootfs));
  if (!loaded) return NameFlagInError(loaded.error(), ResetFlagFields(), options_.flags.SetNames());
  for (const std::string& warning : loaded->warnings) {
    spdlog::warn("{}", warning);
    event_output_.events().Emit("Warning", {{"message", warning}});
  }
  data_.cfg = std::move(loaded->cfg);
  Result<std::set<std::string>> ignored =
      phases::preflight::ParseIgnorePreflightErrors({}, data_.cfg.ignore_preflight_errors);
  if (!ignored) return ignored.error();
  data_.ignore_preflight_errors = std::move(*ignored);
  // A dry run changes nothing, so there is nothing to confirm.
  data_.confirm = !data_.cfg.force && !data_.cfg.dry_run;
  data_.cleanup_cni = options_.cleanup_cni;
  KKADM_RETURN_IF_ERROR(MakeSeams());
  LoadJournal();
  // Inside reset's own records in the journal, when there is one.
  event_output_.Observe(observers_);
  runner_.SetObserver(&observers_);
  FetchClusterConfiguration();
  // kubeadm: --cert-dir, else ResetConfiguration.certificatesDir, else the cluster's.
  data_.cert_dir = data_.cfg.certificates_dir;
  if (!options_.flags.cert_dir && data_.cluster &&
      data_.cfg.certificates_dir == "/etc/kubernetes/pki") {
    data_.cert_dir = data_.cluster->certificates_dir;
  }
  return hooks_.Attach(hook_options_,
                       HookFacts("reset", context_.global.rootfs, data_.dry_run,
                                 options_.config_path, {{"certificatesDir", data_.cert_dir}}),
                       host_->host().fs, printer_, observers_, {.events = event_output_.events()});
}

Status ResetCommand::MakeSeams() {
  const bool dry_run = data_.cfg.dry_run;
  HostOptions options;
  options.rootfs = context_.global.rootfs;
  options.dry_run = dry_run;
  options.dry_run_name = "reset";
  options.announce_services_as = "reset";
  Result<std::unique_ptr<OwnedHost>> host =
      MakeHost(options, *seams_.machine, printer_, seams_.terminal.get());
  if (!host) return host.error();
  host_ = std::move(*host);
  host_->set_events(event_output_.events());  // the API and etcd clients' retries
  // One command at a time, as for init and join (cmd/journaled_host.cc).
  Result<util::NodeLock> lock = util::NodeLock::Acquire(host_->host().fs.HostPath("/"));
  if (!lock) return lock.error();
  lock_.emplace(std::move(*lock));
  data_.host = &host_->host();
  data_.out = &printer_;
  data_.events = event_output_.events();
  data_.dry_run = dry_run;
  if (dry_run) {
    etcd_ = std::make_unique<phases::DryRunEtcdMemberRemover>(printer_);
  } else {
    etcd_ = std::make_unique<phases::RealEtcdMemberRemover>(data_.host->net);
  }
  data_.etcd = etcd_.get();
  return Status();
}

// A node kkadm set up has its state directory: reset undoes what the journal in it records, and
// records its own run there unless it runs dry.
void ResetCommand::LoadJournal() {
  namespace journal = phases::journal;
  util::FileSystem& fs = data_.fs();
  if (!fs.Exists(journal::kStateDir)) return;
  auto loaded = std::make_unique<journal::Journal>(fs, data_.host->clock);
  if (Status status = loaded->Load(); !status.ok()) {
    spdlog::warn("[reset] {}: resetting as kubeadm does", status.message());
    return;
  }
  data_.made = journal::WhatKkadmMade(loaded->state());
  journal_ = std::move(loaded);
  if (data_.dry_run) return;
  Result<std::string> boot_id =
      data_.host->machine.ReadSystemFile("/proc/sys/kernel/random/boot_id");
  recorder_ =
      std::make_unique<ResetRecorder>(*journal_, fs, printer_, build_info::kVersion,
                                      boot_id ? std::string(util::TrimSpace(*boot_id)) : "");
  observers_.Add(*recorder_);
  runner_.SetObserver(&observers_);
}

void ResetCommand::FetchClusterConfiguration() {
  util::FileSystem& fs = data_.fs();
  if (!fs.Exists(options_.kubeconfig_path)) {
    spdlog::debug("[reset] Could not obtain a client set from the kubeconfig file: {}",
                  options_.kubeconfig_path);
    return;
  }
  printer_.Line("reset", "Reading configuration from the cluster...");
  printer_.Line("reset",
                "FYI: You can look at this config file with 'kubectl -n kube-system get cm "
                "kubeadm-config -o yaml'");
  auto client = util::KubeClientFromKubeconfigFile(
      data_.host->net, fs, options_.kubeconfig_path,
      {.clock = data_.host->clock, .api_call = kApiRetryTimeout, .request = kApiRequestTimeout});
  Result<config::ClusterConfiguration> cluster =
      client ? phases::FetchClusterConfiguration(**client)
             : Result<config::ClusterConfiguration>(client.error());
  if (!cluster) {
    spdlog::warn("[reset] Unable to fetch the kubeadm-config ConfigMap from cluster: {}",
                 cluster.error().message());
    return;
  }
  data_.cluster = std::move(*cluster);
}

Result<std::vector<std::string>> ResetCommand::ResolveSkipPhases(
    const std::vector<std::string>& flag) {
  // kubeadm: the flag wins; without it, ResetConfiguration.skipPhases applies.
  if (!flag.empty()) return flag;
  return data_.cfg.skip_phases;
}

void ResetCommand::Done(const Status& status, const std::string& failed_phase) {
  if (host_ && !host_->dry_run_dir().empty() && std::getenv("KKADM_RESET_DRYRUN_DIR") == nullptr) {
    ::rmdir(
        host_->dry_run_dir().c_str());  // reset writes nothing there; only an empty directory goes
  }
  if (!status.ok()) {
    context_.status = status;
    if (failed_phase == "preflight") context_.exit_code = kExitPreflight;
    return;
  }
  // kubeadm prints its instructions after the whole workflow, not after a single phase.
  if (command_ != nullptr && !command_->got_subcommand("phase")) {
    printer_.Raw(CleanupInstructions(data_.cleanup_cni));
  }
  printer_.Raw(KeptReport(data_.kept, data_.removed_changed));
  if (data_.left_behind.empty()) return;
  printer_.Raw(LeftBehindReport(data_.left_behind));
  printer_.stream().flush();
  context_.status = FailedPrecondition(
      fmt::format("reset is incomplete: {} item(s) could not be cleaned up (listed above)",
                  data_.left_behind.size()));
  context_.exit_code = kExitError;
}

}  // namespace kkadm::cmd
