// The `cleanup-node` phase of `kkadm reset`: stop the kubelet, unmount what lies below
// /var/lib/kubelet, delete the contents of kubeadm's directories and its kubeconfig files, all
// through the host's seams (which say what they do, or in a dry run what they would do).
#include "app/phases/reset/cleanup_node_phase.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "app/phases/cri/cri_socket.h"
#include "app/phases/cri/pod_removal.h"
#include "app/phases/journal/journal.h"

namespace kkadm::phases::reset {
namespace {

constexpr const char* kKubeletUnit = "kubelet.service";
constexpr const char* kDefaultCertDir = "/etc/kubernetes/pki";
constexpr const char* kDefaultEtcdDataDir = "/var/lib/etcd";

void AddFailures(ResetData& data, const std::vector<util::RemovalFailure>& failures) {
  for (const auto& f : failures) data.LeaveBehind(f.path, f.reason);
}

// Checks that no mount is left below the kubelet directory; each one that is goes to left_behind
// with the unmount error met for it, if any.
bool NoMountsLeft(ResetData& data, const std::map<std::string, std::string>& errors) {
  Result<std::vector<std::string>> left = data.host->mounter.MountPointsUnder(data.kubelet_dir);
  if (!left) {
    data.LeaveBehind(data.kubelet_dir,
                     "its mounts could not be listed again: " + left.error().message());
    return false;
  }
  for (const std::string& mount : *left) {
    auto error = errors.find(mount);
    data.LeaveBehind(mount, error != errors.end() ? "could not be unmounted: " + error->second
                                                  : "is still mounted");
  }
  return left->empty();
}

}  // namespace

void StopKubelet(ResetData& data) {
  // The init system says it ("[reset] Stopping the kubelet service", or in a dry run "[dryrun]
  // Would stop the kubelet service").
  Status stopped = data.host->init.Stop(kKubeletUnit);
  if (stopped.ok()) return;
  if (stopped.code() == StatusCode::kNotFound) {
    spdlog::info("[reset] The kubelet service is not installed: {}", stopped.message());
    return;
  }
  spdlog::warn("[reset] The kubelet service could not be stopped by kkadm: [{}]",
               stopped.message());
  spdlog::warn("[reset] Please ensure kubelet is stopped manually");
  data.LeaveBehind(kKubeletUnit, "could not be stopped: " + stopped.message() +
                                     "; stop it by hand ('systemctl stop kubelet')");
}

void RemoveContainers(ResetData& data) {
  Result<std::string> endpoint = cri::CriSocketOrDetected(*data.host, data.cfg.cri_socket);
  Result<std::string> path = endpoint ? util::CriSocketPath(*endpoint) : endpoint;
  if (!path) {
    data.LeaveBehind("containers", "not removed: " + path.error().message());
    return;
  }
  // No runtime, no containers: a node whose runtime is gone (or never was) has none to remove.
  Status socket = data.host->machine.CheckUnixSocket(data.fs().HostPath(*path));
  if (socket.code() == StatusCode::kNotFound) {
    spdlog::info("[reset] No container runtime socket at {}: no containers to remove", *path);
    return;
  }
  Result<std::unique_ptr<util::ContainerRuntime>> runtime = cri::ConnectCri(*data.host, *endpoint);
  if (!runtime) {
    data.LeaveBehind(*endpoint, "containers not removed: " + runtime.error().message());
    return;
  }
  cri::PodRemovalOptions options;
  options.verify = !data.dry_run;
  for (const cri::NotRemoved& left :
       cri::RemoveKubernetesPods(**runtime, data.host->clock, data.printer(), options)) {
    data.LeaveBehind(left.what, left.reason);
  }
}

bool UnmountKubeletDir(ResetData& data) {
  // The mounter says it ("[reset] Unmounting mounted directories in ...", or "Would unmount ...").
  Result<std::map<std::string, std::string>> errors =
      data.host->mounter.UnmountAllUnder(data.kubelet_dir, data.cfg.unmount_flags);
  if (!errors) {
    data.LeaveBehind(data.kubelet_dir,
                     "its mounts could not be listed: " + errors.error().message());
  }
  const bool ok = errors && NoMountsLeft(data, *errors);
  if (!ok) {
    data.LeaveBehind(data.kubelet_dir,
                     "contents not deleted: a mount below it is still mounted, and "
                     "deleting through it would delete what it shows");
  }
  return ok;
}

std::vector<std::string> DirectoriesToClean(const ResetData& data, bool kubelet_unmounted) {
  std::vector<std::string> dirs = {data.manifest_dir};
  if (kubelet_unmounted) dirs.push_back(data.kubelet_dir);
  dirs.push_back(data.cert_dir);
  if (data.cfg.cleanup_tmp_dir) dirs.push_back(data.kubeconfig_dir + "/tmp");
  if (data.cleanup_cni) dirs.push_back(data.cni_dir);
  return dirs;
}

std::vector<std::string> FilesToDelete(const ResetData& data) {
  std::vector<std::string> files;
  for (const char* name : {"admin.conf", "super-admin.conf", "kubelet.conf",
                           "bootstrap-kubelet.conf", "controller-manager.conf", "scheduler.conf"}) {
    files.push_back(data.kubeconfig_dir + "/" + name);
  }
  return files;
}

namespace {

// The directories that the kubelet and the local etcd fill with state of their own.
std::vector<journal::ComponentDir> ComponentDirs(const ResetData& data) {
  std::vector<journal::ComponentDir> dirs = {{data.kubelet_dir, "the kubelet directory"}};
  std::vector<std::string> etcd = data.made->etcd_data_dirs;
  if (!data.etcd_data_dir.empty()) etcd.push_back(data.etcd_data_dir);
  etcd.push_back(kDefaultEtcdDataDir);
  for (const std::string& dir : etcd) dirs.push_back({dir, "the etcd data directory"});
  return dirs;
}

// What the kubelet kkadm started wrote outside its directory: the kubeconfig its TLS bootstrap
// made (a joined node's kubelet.conf; init writes its own, and the journal lists that one).
std::vector<std::string> KubeletFiles(const ResetData& data) {
  const std::vector<std::string>& started = data.made->units_started;
  if (std::find(started.begin(), started.end(), "kubelet.service") == started.end()) return {};
  return {data.kubeconfig_dir + "/kubelet.conf"};
}

// With kkadm's journal: exactly what it says kkadm did is undone (journal/undo.h), and what the
// user asked for besides (--cleanup-tmp-dir, --cleanup-cni).
Status UndoJournaled(ResetData& data) {
  data.printer().Line("reset", fmt::format("Undoing what kkadm's journal ({}) says it did to "
                                           "this node",
                                           journal::kJournalPath));
  journal::UndoReport report;
  journal::UndoUnits(*data.made, data.host->init, report);
  // The kubelet kkadm started ran the pods: every sandbox in the CRI is Kubernetes' (kubeadm).
  RemoveContainers(data);
  journal::UndoScope scope{ComponentDirs(data), {}, KubeletFiles(data)};
  if (!UnmountKubeletDir(data)) scope.spared.push_back(data.kubelet_dir);
  std::vector<std::string> extra = DirectoriesToClean(data, false);
  std::erase_if(extra, [&](const std::string& dir) {
    return dir == data.manifest_dir || dir == data.cert_dir;
  });
  if (!extra.empty()) AddFailures(data, data.host->remover.CleanDirectories(extra));
  journal::UndoFiles(*data.made, scope, data.fs(), data.host->remover, report);
  journal::ReloadUnits(*data.made, data.host->init, report);
  journal::SayUndone(report, data.dry_run, data.printer());
  for (const journal::UndoItem& item : report.failed) data.LeaveBehind(item.path, item.reason);
  for (const journal::UndoItem& item : report.kept) data.kept.push_back({item.path, item.reason});
  data.removed_changed = report.changed;
  return Status();
}

}  // namespace

Status RunCleanupNode(ResetData& data) {
  if (data.made) return UndoJournaled(data);
  StopKubelet(data);
  RemoveContainers(data);
  bool unmounted = UnmountKubeletDir(data);
  // etcd ran until the kubelet stopped: what it wrote after remove-etcd-member emptied its data
  // directory (or a restarted etcd's fresh member directory) goes too.
  if (!data.etcd_data_dir.empty())
    AddFailures(data, data.host->remover.CleanDirectory(data.etcd_data_dir));
  if (data.cert_dir != kDefaultCertDir) {
    spdlog::warn("[reset] WARNING: Cleaning a non-default certificates directory: \"{}\"",
                 data.cert_dir);
  }
  // The remover says what it deletes ("[reset] Deleting files: [...]", or "Would delete ...").
  AddFailures(data, data.host->remover.CleanDirectories(DirectoriesToClean(data, unmounted)));
  AddFailures(data, data.host->remover.RemoveFiles(FilesToDelete(data)));
  // kkadm's journal of what it did to the node goes with what it did: the next init or join
  // starts afresh.
  AddFailures(data, data.host->remover.RemovePath(journal::kStateDir));
  AddFailures(data, data.host->remover.RemovePath(journal::kRunDir));
  return Status();
}

}  // namespace kkadm::phases::reset

namespace kkadm::phases {

workflow::Phase NewCleanupNodePhase(ResetData& data) {
  workflow::Phase phase;
  phase.name = "cleanup-node";
  phase.aliases = {"cleanupnode"};
  phase.description = "Run cleanup node.";
  phase.run = [&data] { return reset::RunCleanupNode(data); };
  phase.inherit_flags = {"config",          "cert-dir",    "cri-socket",
                         "cleanup-tmp-dir", "cleanup-cni", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
