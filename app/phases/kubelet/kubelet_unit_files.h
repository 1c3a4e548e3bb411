// The systemd unit files that make systemd run the kubelet the way kubeadm's packages do.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/util/file_system.h"

namespace kkadm::phases {

inline constexpr std::string_view kKubeletUnit = "kubelet.service";
inline constexpr std::string_view kKubeletBaseUnitPath = "/etc/systemd/system/kubelet.service";
inline constexpr std::string_view kKubeletDropInPath =
    "/etc/systemd/system/kubelet.service.d/10-kkadm.conf";
inline constexpr std::string_view kDefaultKubeletBinary = "/usr/bin/kubelet";

// Node paths the unit files point at.
struct KubeletUnitPaths {
  std::string kubelet_binary = std::string(kDefaultKubeletBinary);
  std::string kubelet_dir = "/var/lib/kubelet";
  std::string kubeconfig_dir = "/etc/kubernetes";
};

// The drop-in (kubeadm's packaged 10-kubeadm.conf, kkadm's name): the kubeconfig and config flags,
// the kubeadm-flags.env and /etc/default/kubelet environment files, and the ExecStart using them.
std::string RenderKubeletDropIn(const KubeletUnitPaths& paths);

// A kubelet.service for nodes without the kubelet package's unit.
std::string RenderKubeletBaseUnit(const std::string& kubelet_binary);

// Writes the drop-in (0644; same input, same bytes) and, when no packaged kubelet.service exists
// under /lib or /usr/lib and /etc/systemd/system/kubelet.service is absent or kkadm's own, the
// base unit (0644). A kubelet.service someone else put in /etc is left alone, and a file that
// already has the right bytes and mode is not rewritten. Returns the node paths of the unit files
// kkadm manages (written now or already up to date), the base unit first when it is one of them.
Result<std::vector<std::string>> WriteKubeletUnitFiles(util::FileSystem& fs,
                                                       const KubeletUnitPaths& paths);

}  // namespace kkadm::phases
