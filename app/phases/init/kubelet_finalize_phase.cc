// kubelet-finalize phase adapter.
#include "app/phases/init/kubelet_finalize_phase.h"

#include "app/phases/kubeletfinalize/kubelet_finalize.h"

namespace kkadm::phases {
namespace {

// The kubelet's --cert-dir from kubeletExtraArgs (the last one wins), else <kubelet_dir>/pki.
std::string KubeletPkiDir(const InitData& data) {
  std::string dir = data.kubelet_dir + "/pki";
  for (const auto& arg : data.cfg.node_registration.kubelet_extra_args) {
    if (arg.name == "cert-dir") dir = arg.value;
  }
  return dir;
}

}  // namespace

workflow::Phase NewKubeletFinalizePhase(InitData& data) {
  workflow::Phase rotation;
  rotation.name = "enable-client-cert-rotation";
  rotation.description = "Enable kubelet client certificate rotation";
  rotation.run = [&data] {
    return EnableClientCertRotation(*data.host, data.printer(),
                                    {.kubelet_pki_dir = KubeletPkiDir(data),
                                     .kubelet_kubeconfig = data.kubeconfig_dir + "/kubelet.conf"});
  };
  rotation.inherit_flags = {"config", "cert-dir", "dry-run"};

  workflow::Phase phase;
  phase.name = "kubelet-finalize";
  phase.description = "Updates settings relevant to the kubelet after TLS bootstrap";
  phase.example =
      "  # Updates settings relevant to the kubelet after TLS bootstrap\n"
      "  kkadm init phase kubelet-finalize all --config";
  phase.children.push_back(std::move(rotation));
  return phase;
}

}  // namespace kkadm::phases
