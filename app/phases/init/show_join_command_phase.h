// The show-join-command phase of `kkadm init`.
#pragma once

#include <string>

#include "app/phases/init/init_data.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// The join commands of one bootstrap token, each in kkadm's one-argument form
// ("kkadm join kk1.…") and in kubeadm's flag form (JoinCommand).
struct JoinCommands {
  std::string control_plane;
  std::string control_plane_kubeadm;
  std::string worker;
  std::string worker_kubeadm;
};

// kubeadm's success banner for one token: kubeconfig copy hint, pod network hint, the
// control-plane join commands (only with a controlPlaneEndpoint) and the worker join commands,
// each one-argument command followed by its kubeadm form ("or, with kubeadm's flags:").
std::string InitDoneBanner(const std::string& admin_kubeconfig_path, bool control_plane_endpoint,
                           bool upload_certs, const JoinCommands& join);

// The join commands for `token` after init. The certificate key is used only with
// --upload-certs; --skip-token-print / --skip-certificate-key-print withhold the secrets (a join
// token holds the bootstrap token, so it is withheld whole).
Result<JoinCommands> InitJoinCommands(InitData& data, const std::string& token);

// "show-join-command": prints InitDoneBanner once per bootstrap token.
workflow::Phase NewShowJoinCommandPhase(InitData& data);

}  // namespace kkadm::phases
