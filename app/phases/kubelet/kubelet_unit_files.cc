// kubelet.service and its kkadm drop-in.
#include "app/phases/kubelet/kubelet_unit_files.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

namespace kkadm::phases {
namespace {

// First line of the base unit; a kubelet.service starting with it is kkadm's to rewrite.
constexpr std::string_view kBaseUnitMarker = "# kubelet.service written by kkadm";

bool HasPackagedUnit(const util::FileSystem& fs) {
  return fs.Exists("/lib/systemd/system/kubelet.service") ||
         fs.Exists("/usr/lib/systemd/system/kubelet.service");
}

// The unit file's bytes; nullopt when there is none.
Result<std::optional<std::string>> ReadUnitFile(const util::FileSystem& fs,
                                                const std::string& path) {
  auto existing = fs.ReadFile(path);
  if (existing) return std::optional<std::string>(std::move(*existing));
  if (existing.error().code() == StatusCode::kNotFound) return std::optional<std::string>();
  return existing.error().Wrap("reading " + path);
}

// Leaves a file that already holds `content` (`existing`) with mode 0644 as it is: a unit file
// whose mtime does not change neither makes systemd rebuild its unit cache nor marks a loaded
// kubelet.service NeedDaemonReload, so a re-run needs no daemon-reload.
Status WriteUnitFile(util::FileSystem& fs, const std::string& path, const std::string& content,
                     const std::optional<std::string>& existing) {
  if (existing == content) {
    auto info = fs.Stat(path);
    if (info && info->type == util::FileType::kRegular && info->mode == 0644) return Status();
  }
  return fs.WriteFile(path, content, 0644).Wrap("writing " + path);
}

// Writes `content` to `path` unless it is there already, and counts the file as kkadm's.
Status WriteManagedFile(util::FileSystem& fs, const std::string& path, const std::string& content,
                        KubeletUnitFiles& files) {
  auto existing = ReadUnitFile(fs, path);
  if (!existing) return existing.error();
  KKADM_RETURN_IF_ERROR(WriteUnitFile(fs, path, content, *existing));
  files.managed.push_back(path);
  return Status();
}

}  // namespace

std::string RenderKubeletDropIn(const KubeletUnitPaths& p) {
  return fmt::format(
      "# Written by kkadm: how systemd runs the kubelet of a kkadm node.\n"
      "[Service]\n"
      "Environment=\"KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig={1}/bootstrap-kubelet.conf "
      "--kubeconfig={1}/kubelet.conf\"\n"
      "Environment=\"KUBELET_CONFIG_ARGS=--config={2}/config.yaml\"\n"
      "# Written by \"kkadm init\" and \"kkadm join\": KUBELET_KUBEADM_ARGS.\n"
      "EnvironmentFile=-{2}/kubeadm-flags.env\n"
      "# The user's last-resort overrides: KUBELET_EXTRA_ARGS (RPM and Debian packages' places).\n"
      "EnvironmentFile=-/etc/sysconfig/kubelet\n"
      "EnvironmentFile=-/etc/default/kubelet\n"
      "ExecStart=\n"
      "ExecStart={0} $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS "
      "$KUBELET_EXTRA_ARGS\n",
      p.kubelet_binary, p.kubeconfig_dir, p.kubelet_dir);
}

std::string RenderKubeletBaseUnit(const std::string& kubelet_binary) {
  return fmt::format(
      "{}: the node has no kubelet package unit.\n"
      "[Unit]\n"
      "Description=kubelet: The Kubernetes Node Agent\n"
      "Documentation=https://kubernetes.io/docs/\n"
      "Wants=network-online.target\n"
      "After=network-online.target\n"
      "\n"
      "[Service]\n"
      "ExecStart={}\n"
      "Restart=always\n"
      "StartLimitInterval=0\n"
      "RestartSec=10\n"
      "\n"
      "[Install]\n"
      "WantedBy=multi-user.target\n",
      kBaseUnitMarker, kubelet_binary);
}

Result<KubeletUnitFiles> WriteKubeletUnitFiles(util::FileSystem& fs,
                                               const KubeletUnitPaths& paths) {
  auto conflicts = FindKubeletDropInConflicts(fs);
  if (!conflicts) return conflicts.error();
  KKADM_RETURN_IF_ERROR(CheckKubeletDropInConflicts(*conflicts));
  KubeletUnitFiles files;
  if (!HasPackagedUnit(fs)) {
    std::string path(kKubeletBaseUnitPath);
    auto existing = ReadUnitFile(fs, path);
    if (!existing) return existing.error();
    if (!*existing || (*existing)->rfind(kBaseUnitMarker, 0) == 0) {  // absent or kkadm's own
      KKADM_RETURN_IF_ERROR(
          WriteUnitFile(fs, path, RenderKubeletBaseUnit(paths.kubelet_binary), *existing));
      files.managed.push_back(path);
    }
  }
  KKADM_RETURN_IF_ERROR(
      WriteManagedFile(fs, std::string(kKubeletDropInPath), RenderKubeletDropIn(paths), files));
  // Every conflict left is hideable: the check above refused the others.
  for (KubeletDropInConflict& hidden : *conflicts) {
    std::string name = hidden.path.substr(hidden.path.rfind('/') + 1);
    KKADM_RETURN_IF_ERROR(WriteManagedFile(fs, fmt::format("{}/{}", kKubeletDropInDir, name),
                                           RenderKubeletDropInShadow(hidden), files));
    files.hidden.push_back(std::move(hidden));
  }
  return files;
}

}  // namespace kkadm::phases
