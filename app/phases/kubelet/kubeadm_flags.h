// The kubelet flags kubeadm hands over in /var/lib/kubelet/kubeadm-flags.env
// (KUBELET_KUBEADM_ARGS, read by the kubelet's systemd drop-in).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/config/types.h"
#include "app/util/file_system.h"
#include "app/util/static_pod.h"

namespace kkadm::phases {

inline constexpr std::string_view kKubeadmFlagsEnvName = "kubeadm-flags.env";

// kkadm's own kubelet flags: --container-runtime-endpoint, --pod-infra-container-image
// (<imageRepository>/pause:<config::kPauseVersion>, as kubeadm's GetPauseImage),
// --register-with-taints when `register_taints` and taints are set (join workers), and
// --hostname-override when the node name differs from `hostname` (the lower-cased machine
// hostname). The node name is kubeletExtraArgs' hostname-override if given,
// else node.name, else the hostname.
std::vector<config::Arg> KubeletBaseFlags(const config::NodeRegistration& node,
                                          const std::string& image_repository,
                                          const std::string& hostname, bool register_taints);

// The kubelet's flags are merged like a static Pod's: kubeadm's ArgumentsToCommand.
using util::ArgumentsToCommand;

// Go's strconv.Quote (fmt %q) of `s`: double-quoted, with \" \\ \n \t ... and \xNN escapes.
std::string GoQuote(std::string_view s);

// The whole file: `KUBELET_KUBEADM_ARGS="<args joined by spaces>"` and a newline.
std::string RenderKubeadmFlagsEnv(const std::vector<std::string>& args);

// Writes <kubelet_dir>/kubeadm-flags.env (0644), creating kubelet_dir 0700 when missing.
// Rewrites the file every time; same input gives the same bytes.
Status WriteKubeletDirFile(util::FileSystem& fs, const std::string& kubelet_dir,
                           std::string_view name, std::string_view content);

}  // namespace kkadm::phases
