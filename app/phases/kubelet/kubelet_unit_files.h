// The systemd unit files that make systemd run the kubelet the way kubeadm's packages do.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/phases/kubelet/kubelet_drop_ins.h"
#include "app/util/file_system.h"

namespace kkadm::phases {

inline constexpr std::string_view kKubeletUnit = "kubelet.service";
inline constexpr std::string_view kKubeletBaseUnitPath = "/etc/systemd/system/kubelet.service";
inline constexpr std::string_view kKubeletDropInPath =
    "/etc/systemd/system/kubelet.service.d/10-kkadm.conf";
static_assert(kKubeletDropInPath.starts_with(kKubeletDropInDir) &&
              kKubeletDropInPath.ends_with(kKubeletDropInName));
inline constexpr std::string_view kDefaultKubeletBinary = "/usr/bin/kubelet";

// Node paths the unit files point at.
struct KubeletUnitPaths {
  std::string kubelet_binary = std::string(kDefaultKubeletBinary);
  std::string kubelet_dir = "/var/lib/kubelet";
  std::string kubeconfig_dir = "/etc/kubernetes";
};

// The drop-in (kubeadm's packaged 10-kubeadm.conf, kkadm's name): the kubeconfig and config flags,
// the kubeadm-flags.env environment file, the user's /etc/sysconfig/kubelet (where the RPM
// packages' drop-in reads it) and /etc/default/kubelet (the Debian packages'), and the ExecStart
// using them.
std::string RenderKubeletDropIn(const KubeletUnitPaths& paths);

// A kubelet.service for nodes without the kubelet package's unit.
std::string RenderKubeletBaseUnit(const std::string& kubelet_binary);

struct KubeletUnitFiles {
  // Node paths of the unit files kkadm manages (written now or already up to date): the base unit
  // when it is one of them, the drop-in, then the files hiding the drop-ins in `hidden`.
  std::vector<std::string> managed;
  // The drop-ins that would have overridden kkadm's, which systemd no longer reads.
  std::vector<KubeletDropInConflict> hidden;
};

// Makes kkadm's drop-in the one that decides how systemd runs the kubelet. Refuses first, writing
// nothing, when a drop-in kkadm cannot hide overrides it (CheckKubeletDropIns). Then writes the
// drop-in (0644; same input, same bytes); when no packaged kubelet.service exists under /lib or
// /usr/lib and /etc/systemd/system/kubelet.service is absent or kkadm's own, the base unit (0644);
// and for each drop-in that would override kkadm's from a directory of lower precedence (kubeadm's
// packaged 10-kubeadm.conf), a file of the same name in kkadm's drop-in directory that hides it
// (RenderKubeletDropInShadow, 0644). A kubelet.service someone else put in /etc is left alone, and
// a file that already has the right bytes and mode is not rewritten.
Result<KubeletUnitFiles> WriteKubeletUnitFiles(util::FileSystem& fs, const KubeletUnitPaths& paths);

}  // namespace kkadm::phases
