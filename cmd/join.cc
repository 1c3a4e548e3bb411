// `kkadm join`: binds the flags, builds JoinData once, runs the join phases.
#include "cmd/join.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/config/make_config.h"
#include "app/phases/cri/cri_socket.h"
#include "app/phases/etcd/etcd_join.h"
#include "app/phases/join/check_etcd_phase.h"
#include "app/phases/join/control_plane_join_phase.h"
#include "app/phases/join/control_plane_prepare_phase.h"
#include "app/phases/join/kubelet_start_phase.h"
#include "app/phases/join/preflight_phase.h"
#include "app/phases/join/wait_control_plane_phase.h"
#include "app/phases/kubelet/kubelet_bootstrap.h"
#include "app/phases/preflight/run_checks.h"
#include "app/util/duration.h"
#include "app/util/file_system_real.h"
#include "app/util/machine_real.h"
#include "app/util/suggestions.h"
#include "cmd/config_file.h"
#include "cmd/flag_fields.h"
#include "cmd/help.h"
#include "cmd/join_inputs.h"
#include "cmd/root.h"

namespace kkadm::cmd {
namespace {

std::vector<workflow::Phase> JoinPhases(phases::JoinData& data) {
  std::vector<workflow::Phase> tree = {
      phases::NewJoinPreflightPhase(data),    phases::NewControlPlanePreparePhase(data),
      phases::NewCheckEtcdPhase(data),        phases::NewJoinKubeletStartPhase(data),
      phases::NewControlPlaneJoinPhase(data), phases::NewJoinWaitControlPlanePhase(data)};
  DeclareJoinInputs(tree, data);
  return tree;
}

constexpr const char* kJoinLong =
    "When joining a kubeadm initialized cluster, we need to establish bidirectional trust. This "
    "is\n"
    "split into discovery (having the Node trust the Kubernetes Control Plane) and TLS bootstrap\n"
    "(having the Kubernetes Control Plane trust the Node).\n\n"
    "The simplest form is one argument, the join token that `kkadm init` and `kkadm token create`\n"
    "print: kkadm join kk1.<...>. It carries the API server endpoint(s), the bootstrap token, the\n"
    "pin of the cluster CA's public key and, for a control-plane node, the certificate key.\n\n"
    "kubeadm's forms work too: kkadm join 1.2.3.4:6443 --token abcdef.1234567890abcdef\n"
    "--discovery-token-ca-cert-hash sha256:<hex>, or kkadm join --discovery-file "
    "path/to/file.conf\n"
    "(or an https URL, verified with the host's CA bundle). The hash is a SHA-256 over the\n"
    "Subject Public Key Info of the cluster CA; --discovery-token-unsafe-skip-ca-verification "
    "joins\n"
    "without it, which lets other nodes impersonate the control plane.\n";

constexpr const char* kWorkerDone =
    "\nThis node has joined the cluster:\n"
    "* Certificate signing request was sent to apiserver and a response was received.\n"
    "* The Kubelet was informed of the new secure connection details.\n\n"
    "Run 'kubectl get nodes' on the control-plane to see this node join the cluster.\n\n";

constexpr const char* kControlPlaneDone =
    "\nThis node has joined the cluster and a new control plane instance was created:\n\n"
    "* Certificate signing request was sent to apiserver and approval was received.\n"
    "* The Kubelet was informed of the new secure connection details.\n"
    "* Control plane label and taint were applied to the new node.\n"
    "* The Kubernetes control plane instances scaled up.\n"
    "{}\n\n"
    "To start administering your cluster from this node, you need to run the following as a "
    "regular user:\n\n"
    "\tmkdir -p $HOME/.kube\n"
    "\tsudo cp -i {} $HOME/.kube/config\n"
    "\tsudo chown $(id -u):$(id -g) $HOME/.kube/config\n\n"
    "Run 'kubectl get nodes' to see this node join the cluster.\n\n";

bool HasDiscoveryInput(const config::JoinFlags& f) {
  return f.endpoint || f.discovery_token || f.token || f.discovery_file;
}

}  // namespace

JoinCommand::JoinCommand(CommandContext& context)
    : context_(context),
      event_output_(context, "join"),
      printer_(event_output_.human()),
      machine_(std::make_unique<util::RealMachine>()),
      runner_(JoinPhases(data_)) {
  RegisterJoinFlags(flags_, options_);
  RegisterHookFlags(flags_, hook_options_);
  event_output_.RegisterFlags(flags_);
  runner_.SetDataInitializer([this] { return MakeJoinData(); });
  runner_.SetUnknownNameHint(util::DidYouMeanHint);
}

void JoinCommand::Bind(CLI::App& parent) {
  CLI::App* cmd =
      parent.add_subcommand("join", "Run this on any machine you wish to join an existing cluster");
  workflow::BindOptions options;
  options.use = "join [api-server-endpoint | join-token]";
  options.phase_commands_now = context_.global.all_commands_now;
  options.every_phase_flags = EventOutput::FlagNames();
  AppendHookFlagNames(options.every_phase_flags);
  options.on_done = [this, cmd](const Status& outcome, const std::string& phase) {
    Status s = SyncNodeFiles(host_.get(), outcome);
    if (!s.ok() || !cmd->got_subcommand("phase")) Done(s, phase);  // one phase: no banner
    event_output_.Finish(s, phase);
  };
  options.resolve_skip_phases = [this](const std::vector<std::string>& flag) {
    return ResolveSkipPhases(flag);
  };
  if (Status s = workflow::BindToCommand(*cmd, runner_, flags_, std::move(options)); !s.ok()) {
    context_.status = s;
  }
  // After binding, which sets the command's formatter.
  DescribeCommand(*cmd, kJoinLong);
}

Status JoinCommand::UseAdminConfWithoutDiscovery() {
  // kubeadm: a control-plane phase run alone without discovery flags works from admin.conf.
  if (HasDiscoveryInput(options_.flags) || !options_.flags.control_plane.value_or(false))
    return Status::Ok();
  const std::string admin = data_.admin_kubeconfig_path();
  const util::RealFileSystem node(context_.global.rootfs);
  if (!node.Exists(admin)) {
    return InvalidArgument(
        fmt::format("File {} does not exists. Please use 'kkadm join phase "
                    "control-plane-prepare' subcommands to generate it.",
                    admin));
  }
  // A discovery file is a path of this machine: the node's admin.conf under --rootfs.
  options_.flags.discovery_file = node.HostPath(admin);
  return Status::Ok();
}

Status JoinCommand::MakeJoinData() {
  KKADM_RETURN_IF_ERROR(event_output_.Start());
  KKADM_RETURN_IF_ERROR(ApplyJoinArgument(options_));
  Result<std::optional<config::ConfigSource>> file = ReadConfigFile(options_.config_path);
  if (!file) return file.error();
  if (!file->has_value()) KKADM_RETURN_IF_ERROR(UseAdminConfWithoutDiscovery());
  Result<config::LoadedJoin> loaded = config::MakeJoinConfiguration(
      *file, options_.flags, *machine_,
      phases::cri::NodeCriSocketDetector(*machine_, context_.global.rootfs));
  if (!loaded) return NameFlagInError(loaded.error(), JoinFlagFields(), options_.flags.SetNames());
  for (const std::string& warning : loaded->warnings) {
    spdlog::warn("{}", warning);
    event_output_.events().Emit("Warning", {{"message", warning}});
  }
  data_.cfg = std::move(loaded->cfg);
  Result<std::set<std::string>> ignored = phases::preflight::ParseIgnorePreflightErrors(
      {}, data_.cfg.node_registration.ignore_preflight_errors);
  if (!ignored) return ignored.error();
  data_.ignore_preflight_errors = std::move(*ignored);
  // Read when a phase that patches first needs it: a control-plane join checks its patches after
  // discovery, before its first file; a worker's kubelet-start before it writes.
  if (!data_.cfg.patches_directory.empty()) {
    data_.patches = util::patches::Patcher(data_.cfg.patches_directory, printer_);
  }
  data_.dry_run = data_.cfg.dry_run;
  Result<std::chrono::milliseconds> cri_wait = util::ParseDuration(options_.cri_socket_wait);
  if (!cri_wait || cri_wait->count() < 0) {
    return InvalidArgument(fmt::format(
        "invalid --cri-socket-wait \"{}\": want a duration such as 10s", options_.cri_socket_wait));
  }
  data_.cri_socket_wait = *cri_wait;
  if (data_.cfg.discovery.bootstrap_token) {
    data_.discovery_endpoints = {data_.cfg.discovery.bootstrap_token->api_server_endpoint};
    for (const auto& e : options_.extra_endpoints) data_.discovery_endpoints.push_back(e);
  }
  return MakeSeams();
}

Status JoinCommand::MakeSeams() {
  Result<NodeSeams> seams = MakeNodeSeams(context_.global.rootfs, data_.dry_run, "join",
                                          data_.manifest_dir, *machine_, printer_);
  if (!seams) return seams.error();
  host_ = std::move(seams->host);
  host_->set_events(event_output_.events());  // the API and etcd clients' retries
  waiter_ = std::move(seams->waiter);
  Result<std::unique_ptr<JournaledHost>> journaled =
      JournaledHost::Make(host_->host(), printer_, "join", options_.force);
  if (!journaled) return journaled.error();
  journaled_ = std::move(*journaled);
  observers_.Add(journaled_->observer());
  event_output_.Observe(observers_);
  KKADM_RETURN_IF_ERROR(hooks_.Attach(
      hook_options_,
      HookFacts("join", context_.global.rootfs, data_.dry_run, options_.config_path,
                {{"adminKubeconfig", data_.admin_kubeconfig_path()},
                 {"kubeletKubeconfig", data_.kubelet_kubeconfig_path()},
                 {"manifestsDir", data_.manifest_dir}}),
      host_->host().fs, printer_, observers_,
      {event_output_.events(), nullptr, JournalOutputs(journaled_->journal(), "join")}));
  runner_.SetObserver(&observers_);
  data_.events = event_output_.events();
  data_.host = &journaled_->host();
  data_.own_work = journaled_->RecordedWork();
  data_.out = &printer_;
  access_ = std::make_unique<DiscoveringClusterAccess>(data_);
  data_.access = access_.get();
  if (data_.dry_run) {
    kubelet_bootstrap_ = std::make_unique<phases::DryRunKubeletBootstrapWaiter>(printer_);
    etcd_ = std::make_unique<phases::DryRunEtcdJoiner>(printer_);
  } else {
    kubelet_bootstrap_ =
        std::make_unique<phases::RealKubeletBootstrapWaiter>(*data_.host, printer_);
    etcd_ = std::make_unique<phases::RealEtcdJoiner>(*data_.host, printer_, *access_,
                                                     event_output_.events());
  }
  data_.waiter = waiter_.get();
  data_.kubelet_bootstrap = kubelet_bootstrap_.get();
  data_.etcd = &journaled_->Recording(*etcd_);
  return Status::Ok();
}

Result<std::vector<std::string>> JoinCommand::ResolveSkipPhases(
    const std::vector<std::string>& flag) {
  // kubeadm: the flag wins; without it, JoinConfiguration.skipPhases applies.
  skip_phases_ = flag.empty() ? data_.cfg.skip_phases : flag;
  return skip_phases_;
}

void JoinCommand::Done(const Status& status, const std::string& failed_phase) {
  if (!status.ok()) {
    context_.status = status;
    if (failed_phase == "preflight" && data_.preflight_checks_failed)
      context_.exit_code = kExitPreflight;
    return;
  }
  if (data_.dry_run && host_) {
    printer_.Line("dryrun",
                  fmt::format("Wrote what join would have written to the \"{}\" directory",
                              host_->dry_run_dir()));
    printer_.Line(
        "dryrun",
        "Finished dry-running successfully. Above are the resources that would be created.");
    return;
  }
  if (std::find(skip_phases_.begin(), skip_phases_.end(), "kubelet-start") != skip_phases_.end()) {
    printer_.Raw(
        "\nThe join workflow finished, but kubelet-start was skipped: this node has not joined the "
        "cluster yet.\n");
    return;
  }
  if (!data_.control_plane()) {
    printer_.Raw(kWorkerDone);
    return;
  }
  auto cluster = access_->Discovered();
  const bool local_etcd = cluster && (*cluster)->init_cfg.cluster.etcd.local.has_value();
  printer_.Raw(fmt::format(
      kControlPlaneDone,
      local_etcd ? "* A new etcd member was added to the local/stacked etcd cluster." : "",
      data_.admin_kubeconfig_path()));
}

}  // namespace kkadm::cmd
