// `kkadm certs renew <name>|all`: re-issues leaf and kubeconfig client certificates from the local
// CAs, printing kubeadm's lines.
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <memory>

#include "app/phases/certs/expiration.h"
#include "app/phases/certs/renewal.h"
#include "app/phases/certs/renewal_schedule.h"
#include "app/phases/certs/restart.h"
#include "app/util/duration.h"
#include "app/util/node_lock.h"
#include "app/util/printable.h"
#include "app/util/printer.h"
#include "app/util/rfc3339.h"
#include "cmd/certs.h"
#include "cmd/certs_host.h"
#include "cmd/certs_journal.h"
#include "cmd/context.h"
#include "cmd/event_output.h"

namespace kkadm::cmd {
namespace {

namespace certs = phases::certs;

constexpr char kRenewAllDone[] =
    "\nDone renewing certificates. You must restart the kube-apiserver, kube-controller-manager, "
    "kube-scheduler and etcd, so that they can use the new certificates.\n";
constexpr char kRenewAllDoneRestarting[] =
    "\nDone renewing certificates. Restarting the static Pods that use them.\n";
constexpr char kManifestDir[] = "/etc/kubernetes/manifests";

struct RenewOptions {
  CertsConfigOptions config;
  std::string expiring_within;  // --expiring-within, a Go duration; empty: renew unconditionally
  bool restart = false;         // --restart-control-plane
  bool dry_run = false;         // --dry-run
};

// --expiring-within: a positive Go duration, or none.
Result<std::optional<std::chrono::milliseconds>> ParseWindow(const std::string& text) {
  if (text.empty()) return std::optional<std::chrono::milliseconds>();
  auto window = util::ParseDuration(text);
  if (!window || window->count() <= 0) {
    return InvalidArgument("--expiring-within: invalid value " + util::Quote(text) +
                           ": a positive duration such as 720h is expected");
  }
  return std::optional<std::chrono::milliseconds>(*window);
}

// A CertificateRenewal event (docs/events.md): `result` is renewed, missing, external-ca or
// not-due; a renewed or not-due certificate's expiry as its file has it now.
void ReportRenewal(const util::Events& events, const certs::RenewalItem& item,
                   const certs::RenewalEnv& env, std::string_view result) {
  if (!events.enabled()) return;
  nlohmann::json fields = {{"certificate", item.name}, {"result", result}};
  if (result == "renewed" || result == "not-due") {
    auto cert = certs::ReadItemCertificate(item, env);
    if (cert) fields["notAfter"] = util::FormatRfc3339(cert->NotAfter());
  }
  events.Emit("CertificateRenewal", std::move(fields));
}

// With a window, a certificate valid for longer than it is left alone, saying so; a missing file,
// an external CA or an unreadable certificate go on to RenewItem, which says what they are.
bool OutsideWindow(const certs::RenewalItem& item, const certs::RenewalEnv& env,
                   std::optional<std::chrono::milliseconds> window, std::ostream& out,
                   const util::Events& events) {
  if (!window || !env.fs.Exists(certs::ItemPath(item, env))) return false;
  if (certs::IsExternallyManaged(item.ca_base, env)) return false;
  auto cert = certs::ReadItemCertificate(item, env);
  if (!cert) return false;
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(cert->NotAfter() - env.clock.Now());
  if (left <= *window) return false;
  out << fmt::format("{} expires in {}, not within {}: not renewed\n", item.long_name,
                     util::ShortHumanDuration(left), util::FormatDuration(*window));
  ReportRenewal(events, item, env, "not-due");
  return true;
}

Status RenewOne(const certs::RenewalItem& item, const certs::RenewalEnv& env, std::ostream& out,
                const util::Events& events, bool& renewed) {
  auto outcome = certs::RenewItem(item, env);
  if (!outcome) return outcome.error();
  switch (*outcome) {
    case certs::RenewOutcome::kMissing:
      out << "MISSING! " << item.long_name << '\n';
      ReportRenewal(events, item, env, "missing");
      break;
    case certs::RenewOutcome::kExternalCA:
      out << fmt::format("Detected external {}, {} can't be renewed\n", item.ca_base,
                         item.long_name);
      ReportRenewal(events, item, env, "external-ca");
      break;
    case certs::RenewOutcome::kRenewed:
      out << item.long_name << " renewed\n";
      ReportRenewal(events, item, env, "renewed");
      renewed = true;
      break;
  }
  return Status();
}

// Renews the item, as a phase of the journal's "certs renew" run when the node has a journal and
// the item will be written (its file is there and its CA has a key).
Status RecordedRenewal(const certs::RenewalItem& item, const certs::RenewalEnv& env,
                       RenewalRecorder* recorder, std::ostream& out, const util::Events& events,
                       bool& renewed) {
  if (recorder == nullptr || !env.fs.Exists(certs::ItemPath(item, env)) ||
      certs::IsExternallyManaged(item.ca_base, env)) {
    return RenewOne(item, env, out, events, renewed);
  }
  KKADM_RETURN_IF_ERROR(recorder->Begin(item.name));
  const certs::RenewalEnv recorded{
      .cluster = env.cluster, .fs = recorder->fs(), .clock = env.clock};
  return recorder->End(RenewOne(item, recorded, out, events, renewed));
}

// Renews the items (all when `name` is empty) whose certificates the window, if any, selects;
// `renewed` gets the files replaced. With `restarting`, the reminder to restart is not printed.
Status RenewItems(const std::string& name, std::optional<std::chrono::milliseconds> window,
                  const certs::RenewalEnv& env, RenewalRecorder* recorder, std::ostream& out,
                  const util::Events& events, bool restarting,
                  std::vector<std::string>& renewed_files) {
  std::vector<certs::RenewalItem> items;
  if (name.empty()) {
    items = certs::RenewalItems(env.external_etcd());
  } else if (auto item = certs::FindRenewalItem(name)) {
    items.push_back(*item);
  } else {
    return InvalidArgument(name + " is not a valid certificate for this cluster");
  }
  bool renewed = false;
  for (const certs::RenewalItem& item : items) {
    if (OutsideWindow(item, env, window, out, events)) continue;
    bool this_one = false;
    KKADM_RETURN_IF_ERROR(RecordedRenewal(item, env, recorder, out, events, this_one));
    if (!this_one) continue;
    renewed = true;
    for (std::string& file : certs::RenewedFiles(item, env)) renewed_files.push_back(file);
  }
  if (name.empty() && (renewed || !window)) {
    out << (restarting ? kRenewAllDoneRestarting : kRenewAllDone);
  }
  if (name.empty() && !renewed && window) {
    out << "\nNo certificate expires within " << util::FormatDuration(*window)
        << ": nothing renewed.\n";
  }
  return Status();
}

// --restart-control-plane: the static Pods whose manifests name a renewed file, one at a time,
// each wait bounded by controlPlaneComponentHealthCheck. A dry run only says what it would wait
// for; its file system, what it would move.
Status RestartControlPlane(const std::vector<std::string>& renewed,
                           std::chrono::milliseconds timeout, bool dry_run, util::Host& host,
                           util::Printer& printer) {
  auto components = certs::ComponentsUsing(renewed, kManifestDir, host.fs);
  if (!components) return components.error();
  std::unique_ptr<certs::ComponentWaiter> waiter =
      dry_run ? certs::NewDryRunComponentWaiter(printer)
              : certs::NewProbingComponentWaiter(host.net, host.clock, printer);
  return certs::RestartComponents(
      *components, {.fs = host.fs, .waiter = *waiter, .out = printer, .timeout = timeout});
}

// Users renew all that kubeadm renews and forget the kubelet's own client certificate.
void WarnKubeletRotation(const certs::RenewalEnv& env, CommandContext& context) {
  if (auto warning = certs::KubeletRotationWarning(env, env.clock.Now())) {
    context.err << '\n' << *warning << '\n';
  }
}

// The node's lock for the whole command: the recorder holds it on a node with a journal; on
// another one it is taken here, so that a second `certs renew` (the timer's, a user's) neither
// puts back a manifest this one holds out while its Pod restarts nor interleaves renewals.
Result<std::unique_ptr<util::NodeLock>> LockUnlessRecorded(const RenewalRecorder* recorder,
                                                           util::Host& host) {
  if (recorder != nullptr) return std::unique_ptr<util::NodeLock>();
  auto lock = util::NodeLock::Acquire(host.fs.HostPath("/"));
  if (!lock) return lock.error();
  return std::make_unique<util::NodeLock>(std::move(*lock));
}

// Under -o json the human lines go to stderr (output.human()); the events say what was renewed.
Status Renew(const RenewOptions& options, const std::string& name, CommandContext& context,
             EventOutput& output) {
  auto window = ParseWindow(options.expiring_within);
  if (!window) return window.error();
  std::ostream& out = output.human();
  auto renew = [&](util::Host& host) -> Status {
    config::Timeouts timeouts;
    auto cluster = LoadCertsClusterConfig(options.config, host, context, &out, "renew", &timeouts);
    if (!cluster) return cluster.error();
    KKADM_RETURN_IF_ERROR(CheckCertDirExists(host.fs, cluster->certificates_dir));
    const certs::RenewalEnv env{.cluster = *cluster, .fs = host.fs, .clock = host.clock};
    auto recorder = RenewalRecorder::Open(host);
    if (!recorder) return recorder.error();
    auto lock = LockUnlessRecorded(recorder->get(), host);
    if (!lock) return lock.error();
    util::Printer printer(out);
    KKADM_RETURN_IF_ERROR(certs::FinishInterruptedRenewals(env, printer));
    KKADM_RETURN_IF_ERROR(certs::RestoreHeldManifests(host.fs, kManifestDir, printer));
    std::vector<std::string> renewed;
    KKADM_RETURN_IF_ERROR(RenewItems(name, *window, env, recorder->get(), out, output.events(),
                                     options.restart, renewed));
    if (name.empty()) WarnKubeletRotation(env, context);
    if (!options.restart) return Status();
    return RestartControlPlane(renewed, timeouts.control_plane_component_health_check,
                               options.dry_run, host, printer);
  };
  return WithCertsHost(context, renew, options.dry_run ? &out : nullptr);
}

// The service runs this very binary, on the same node root: a --rootfs other than / is a
// directory the machine's own systemd reaches at that path (a test's node, an image being built).
Status Schedule(CommandContext& context, bool restart_control_plane) {
  std::error_code error;
  std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return Internal("finding the kkadm binary (/proc/self/exe): " + error.message());
  certs::RenewalSchedule schedule{
      .kkadm = self.string(), .extra_args = {}, .restart_control_plane = restart_control_plane};
  const std::string& rootfs = context.global.rootfs;
  if (!rootfs.empty() && std::filesystem::absolute(rootfs).lexically_normal() != "/") {
    schedule.extra_args = {"--rootfs", std::filesystem::absolute(rootfs).lexically_normal()};
  }
  return WithCertsHost(context, [&](util::Host& host) -> Status {
    util::Printer printer(context.out);
    return certs::InstallRenewalSchedule(schedule, host.fs, host.init, printer);
  });
}

// `parent_restart`: --restart-control-plane given before the name (`renew --restart-control-plane
// all`) counts as after it.
void AddRenewSubcommand(CLI::App& renew, CommandContext& context, const std::string& name,
                        const std::string& description, std::shared_ptr<bool> parent_restart) {
  auto* cmd = renew.add_subcommand(name.empty() ? "all" : name, description);
  auto options = std::make_shared<RenewOptions>();
  AddCertsConfigFlags(*cmd, options->config);
  cmd->add_option("--expiring-within", options->expiring_within,
                  "Renew only the certificates that expire within this duration (e.g. 720h); "
                  "by default every one is renewed, as kubeadm does");
  cmd->add_flag("--restart-control-plane", options->restart,
                "Then restart, one at a time, the control-plane static Pods that use the renewed "
                "files (moving each manifest out and back) and wait until each is healthy again "
                "(up to timeouts.controlPlaneComponentHealthCheck of --config, default 4m0s)");
  cmd->add_flag("--dry-run", options->dry_run,
                "Don't apply any changes; just output what would be done");
  auto output = std::make_shared<EventOutput>(context, "certs renew");
  output->AddFlags(*cmd);
  cmd->callback([&context, options, name, output, parent_restart] {
    options->restart = options->restart || *parent_restart;
    context.status = output->Run([&] { return Renew(*options, name, context, *output); });
  });
}

}  // namespace

void AddCertsRenewCommand(CLI::App& parent, CommandContext& context) {
  auto* renew = parent.add_subcommand("renew", "Renew certificates for a Kubernetes cluster");
  renew->require_subcommand(0, 1);
  auto schedule = std::make_shared<bool>(false);
  renew->add_flag("--schedule", *schedule,
                  "Install a systemd timer and service (kkadm-certs-renew) that renew, every day, "
                  "the certificates that expire within 30 days");
  auto restart = std::make_shared<bool>(false);
  renew->add_flag("--restart-control-plane", *restart,
                  "With --schedule: the service also restarts the static Pods that use the "
                  "certificates it renewed (see certs renew all --restart-control-plane)");
  renew->callback([&context, renew, schedule, restart] {
    if (!renew->get_subcommands().empty()) {
      if (*schedule) context.status = InvalidArgument("--schedule takes no certificate name");
      return;
    }
    if (!*schedule) throw CLI::RequiredError("A subcommand");
    context.status = Schedule(context, *restart);
  });
  for (const certs::RenewalItem& item : certs::RenewalItems(/*external_etcd=*/false)) {
    AddRenewSubcommand(*renew, context, item.name, "Renew the " + item.long_name, restart);
  }
  AddRenewSubcommand(*renew, context, "", "Renew all available certificates", restart);
}

}  // namespace kkadm::cmd
