// The show-join-command phase of `kkadm init`.
#pragma once

#include <string>

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// kubeadm's success banner for one token: kubeconfig copy hint, pod network hint, the
// control-plane join command (only with a controlPlaneEndpoint) and the worker join command.
std::string InitDoneBanner(const std::string& admin_kubeconfig_path, bool control_plane_endpoint,
                           bool upload_certs, const std::string& join_control_plane,
                           const std::string& join_worker);

// "show-join-command": prints InitDoneBanner once per bootstrap token.
workflow::Phase NewShowJoinCommandPhase(InitData& data);

}  // namespace kkadm::phases
