// `kkadm init`: binds the flags, builds InitData once, runs the init phases.
#include "cmd/init.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/config/defaults.h"
#include "app/config/encode.h"
#include "app/config/make_config.h"
#include "app/phases/cri/cri_socket.h"
#include "app/phases/init/addon_phase.h"
#include "app/phases/init/bootstrap_token_phase.h"
#include "app/phases/init/certs_phase.h"
#include "app/phases/init/control_plane_phase.h"
#include "app/phases/init/etcd_phase.h"
#include "app/phases/init/kubeconfig_phase.h"
#include "app/phases/init/kubelet_finalize_phase.h"
#include "app/phases/init/kubelet_start_phase.h"
#include "app/phases/init/mark_control_plane_phase.h"
#include "app/phases/init/preflight_phase.h"
#include "app/phases/init/show_join_command_phase.h"
#include "app/phases/init/upload_certs_phase.h"
#include "app/phases/init/upload_config_phase.h"
#include "app/phases/init/wait_control_plane_phase.h"
#include "app/phases/preflight/run_checks.h"
#include "app/util/duration.h"
#include "app/util/machine_real.h"
#include "app/util/suggestions.h"
#include "cmd/config_file.h"
#include "cmd/flag_fields.h"
#include "cmd/help.h"
#include "cmd/init_inputs.h"
#include "cmd/root.h"

namespace kkadm::cmd {
namespace {

std::vector<workflow::Phase> InitPhases(phases::InitData& data) {
  std::vector<workflow::Phase> tree = {phases::NewPreflightPhase(data),
                                       phases::NewCertsPhase(data),
                                       phases::NewKubeconfigPhase(data),
                                       phases::NewEtcdPhase(data),
                                       phases::NewControlPlanePhase(data),
                                       phases::NewKubeletStartPhase(data),
                                       phases::NewWaitControlPlanePhase(data),
                                       phases::NewUploadConfigPhase(data),
                                       phases::NewUploadCertsPhase(data),
                                       phases::NewMarkControlPlanePhase(data),
                                       phases::NewBootstrapTokenPhase(data),
                                       phases::NewKubeletFinalizePhase(data),
                                       phases::NewAddonPhase(data),
                                       phases::NewShowJoinCommandPhase(data)};
  DeclareInitInputs(tree, data);
  return tree;
}

}  // namespace

InitCommand::InitCommand(CommandContext& context)
    : context_(context),
      event_output_(context, "init"),
      printer_(event_output_.human()),
      machine_(std::make_unique<util::RealMachine>()),
      runner_(InitPhases(data_)) {
  RegisterInitFlags(flags_, options_);
  RegisterHookFlags(flags_, hook_options_);
  event_output_.RegisterFlags(flags_);
  runner_.SetDataInitializer([this] { return MakeInitData(); });
  runner_.SetUnknownNameHint(util::DidYouMeanHint);
}

void InitCommand::Bind(CLI::App& parent) {
  CLI::App* cmd = parent.add_subcommand(
      "init", "Run this command in order to set up the Kubernetes control plane");
  workflow::BindOptions options;
  options.use = "init";
  options.phase_commands_now = context_.global.all_commands_now;
  options.every_phase_flags = EventOutput::FlagNames();
  AppendHookFlagNames(options.every_phase_flags);
  options.on_done = [this](const Status& s, const std::string& phase) {
    const Status synced = SyncNodeFiles(host_.get(), s);
    Done(synced, phase);
    event_output_.Finish(synced, phase);
  };
  options.resolve_skip_phases = [this](const std::vector<std::string>& flag) {
    return ResolveSkipPhases(flag);
  };
  if (Status s = workflow::BindToCommand(*cmd, runner_, flags_, std::move(options)); !s.ok()) {
    context_.status = s;
  }
  // After binding, which sets the command's formatter.
  DescribeCommand(
      *cmd,
      "Run this command in order to set up the Kubernetes control plane.\n"
      "Phases can be run alone with 'kkadm init phase <name>' and left out with --skip-phases.");
}

Status InitCommand::MakeInitData() {
  KKADM_RETURN_IF_ERROR(event_output_.Start());
  Result<std::optional<config::ConfigSource>> file = ReadConfigFile(options_.config_path);
  if (!file) return file.error();
  Result<config::LoadedInit> loaded = config::MakeInitConfiguration(
      *file, options_.flags, *machine_, context_.release_versions,
      phases::cri::NodeCriSocketDetector(*machine_, context_.global.rootfs));
  if (!loaded) return NameFlagInError(loaded.error(), InitFlagFields(), options_.flags.SetNames());
  for (const std::string& warning : loaded->warnings) {
    spdlog::warn("{}", warning);
    event_output_.events().Emit("Warning", {{"message", warning}});
  }

  data_.cfg = std::move(loaded->cfg);
  // The config layer already merged the flag into nodeRegistration.ignorePreflightErrors.
  Result<std::set<std::string>> ignored = phases::preflight::ParseIgnorePreflightErrors(
      {}, data_.cfg.node_registration.ignore_preflight_errors);
  if (!ignored) return ignored.error();

  // Read when a phase that patches first needs it (before any phase runs: Phase::check).
  if (!data_.cfg.patches_directory.empty()) {
    data_.patches = util::patches::Patcher(data_.cfg.patches_directory, printer_);
  }

  data_.dry_run = data_.cfg.dry_run || options_.flags.dry_run.value_or(false);
  data_.manifest_dir = options_.kubeconfig_dir + "/manifests";
  KKADM_RETURN_IF_ERROR(MakeSeams());
  data_.ignore_preflight_errors = std::move(*ignored);
  Result<std::chrono::milliseconds> cri_wait = util::ParseDuration(options_.cri_socket_wait);
  if (!cri_wait || cri_wait->count() < 0) {
    return InvalidArgument(fmt::format(
        "invalid --cri-socket-wait \"{}\": want a duration such as 10s", options_.cri_socket_wait));
  }
  data_.cri_socket_wait = *cri_wait;
  data_.kubeconfig_dir = options_.kubeconfig_dir;
  data_.admin_kubeconfig_path = options_.kubeconfig_path;
  data_.upload_certs = options_.upload_certs;
  data_.skip_token_print = options_.skip_token_print;
  data_.skip_certificate_key_print = options_.skip_certificate_key_print;
  for (config::BootstrapToken& token : data_.cfg.bootstrap_tokens) {
    if (token.description.empty()) token.description = config::kDefaultTokenDescription;
  }
  data_.cluster_config_yaml = [this] {
    return config::EncodeClusterConfiguration(data_.cfg.cluster);
  };
  const std::string ca = data_.cert_dir() + "/ca";
  data_.external_ca = data_.fs().Exists(ca + ".crt") && !data_.fs().Exists(ca + ".key");
  printer_.Line("init", "Using Kubernetes version: " + data_.cfg.cluster.kubernetes_version);
  return Status();
}

Status InitCommand::MakeSeams() {
  Result<NodeSeams> seams = MakeNodeSeams(context_.global.rootfs, data_.dry_run, "init",
                                          data_.manifest_dir, *machine_, printer_);
  if (!seams) return seams.error();
  host_ = std::move(seams->host);
  host_->set_events(event_output_.events());  // the API and etcd clients' retries
  waiter_ = std::move(seams->waiter);
  Result<std::unique_ptr<JournaledHost>> journaled =
      JournaledHost::Make(host_->host(), printer_, "init", options_.force);
  if (!journaled) return journaled.error();
  journaled_ = std::move(*journaled);
  observers_.Add(journaled_->observer());
  event_output_.Observe(observers_);
  KKADM_RETURN_IF_ERROR(hooks_.Attach(
      hook_options_,
      HookFacts("init", context_.global.rootfs, data_.dry_run, options_.config_path,
                {{"adminKubeconfig", options_.kubeconfig_path},
                 {"kubeconfigDir", options_.kubeconfig_dir},
                 {"certificatesDir", data_.cert_dir()},
                 {"manifestsDir", data_.manifest_dir}}),
      host_->host().fs, printer_, observers_,
      {event_output_.events(), nullptr, JournalOutputs(journaled_->journal(), "init")}));
  runner_.SetObserver(&observers_);
  data_.events = event_output_.events();
  data_.host = &journaled_->host();
  data_.own_work = journaled_->RecordedWork();
  data_.out = &printer_;
  data_.waiter = waiter_.get();
  access_ = std::make_unique<KubeconfigClusterAccess>(data_);
  data_.access = access_.get();
  return Status();
}

Result<std::vector<std::string>> InitCommand::ResolveSkipPhases(
    const std::vector<std::string>& flag) {
  // kubeadm: the flag wins; without it, InitConfiguration.skipPhases applies.
  if (!flag.empty()) return flag;
  return data_.cfg.skip_phases;
}

void InitCommand::Done(const Status& status, const std::string& failed_phase) {
  if (!status.ok()) {
    context_.status = status;
    if (failed_phase == "preflight") context_.exit_code = kExitPreflight;
    return;
  }
  if (data_.dry_run && host_) {
    printer_.Line("dryrun",
                  fmt::format("Wrote what init would have written to the \"{}\" directory",
                              host_->dry_run_dir()));
    printer_.Line(
        "dryrun",
        "Finished dry-running successfully. Above are the resources that would be created.");
  }
}

}  // namespace kkadm::cmd
