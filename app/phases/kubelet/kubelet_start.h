// kubelet-start's work, shared by init and join: write the kubelet's settings, then have systemd
// (re)start it. Knows nothing of the workflow engine.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/host.h"
#include "app/util/patches/patcher.h"
#include "app/util/printer.h"

namespace kkadm::phases {

struct KubeletStartInput {
  const config::ClusterConfiguration& cluster;
  const config::NodeRegistration& node;
  const nlohmann::json& kubelet_config;  // the user's KubeletConfiguration, or null
  std::string kubelet_dir = "/var/lib/kubelet";
  std::string kubeconfig_dir = "/etc/kubernetes";
  std::string manifest_dir = "/etc/kubernetes/manifests";
  bool register_taints = false;  // join workers pass their taints as --register-with-taints
  // Applied to the KubeletConfiguration (target "kubeletconfiguration") before it is written.
  util::patches::Patcher patches;
};

// The patch target of the KubeletConfiguration, as kubeadm names it.
inline constexpr const char* kKubeletConfigurationTarget = "kubeletconfiguration";

// Checks, writing and printing nothing, that in.patches apply to the KubeletConfiguration that
// WriteKubeletFiles would write. Run before a command writes its first file.
Status CheckKubeletConfigPatches(const util::Host& host, const KubeletStartInput& in);

// What kubelet-start checks before a command writes its first file, writing and printing nothing:
// CheckKubeletConfigPatches, and CheckKubeletDropIns (no drop-in kkadm cannot hide would override
// kkadm's drop-in).
Status CheckKubeletStart(const util::Host& host, const KubeletStartInput& in);

// Writes <kubelet_dir>/kubeadm-flags.env and <kubelet_dir>/config.yaml (0644, the directory 0700
// when created) and the unit files (kubelet_unit_files.h), printing kubeadm's
// "[kubelet-start] Writing ..." lines, and one line per drop-in kkadm hides from systemd. The
// KubeletConfiguration is patched (with kubeadm's "[patches] ..." lines); the patches and the
// drop-ins are checked (CheckKubeletStart) before the first file is written. Rewrites them
// every run (unit files only when they changed); the same input gives the same bytes. Returns the
// node paths of kkadm's unit files.
Result<std::vector<std::string>> WriteKubeletFiles(util::Host& host, util::Printer& out,
                                                   const KubeletStartInput& in);

// Stops the kubelet so it does not read half-written files; a kubelet that is not loaded is fine.
Status StopKubelet(util::InitSystem& init);

// Enables kubelet.service, reloads systemd if its view of the unit is not that of `unit_files`
// (InitSystem::ReloadIfStale) and starts it, printing "[kubelet-start] Starting the kubelet".
Status StartKubelet(util::InitSystem& init, util::Printer& out,
                    const std::vector<std::string>& unit_files);

// The whole of kubelet-start in kubeadm's order: stop, write files (then FileSystem::Sync, so
// that every file written so far is in place for systemd and the kubelet), enable, reload if need
// be, start. When systemd cannot be reached the error is kUnavailable "kubelet-start: cannot reach
// systemd over D-Bus (<cause>); kkadm needs systemd to manage the kubelet".
Status RunKubeletStart(util::Host& host, util::Printer& out, const KubeletStartInput& in);

}  // namespace kkadm::phases
