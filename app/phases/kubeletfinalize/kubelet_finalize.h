// The work of kubelet-finalize (kubeadm's cmd/phases/init/kubeletfinalize): once the kubelet has a
// rotatable client certificate, point kubelet.conf at it.
#pragma once

#include <string>

#include "app/util/host.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kKubeletClientCurrentPem = "kubelet-client-current.pem";

struct KubeletFinalizeInput {
  std::string kubelet_pki_dir;     // the kubelet's --cert-dir, else <kubelet_dir>/pki
  std::string kubelet_kubeconfig;  // /etc/kubernetes/kubelet.conf
};

// When <kubelet_pki_dir>/kubelet-client-current.pem exists: rewrites the current context's user
// of kubelet.conf to client-certificate = client-key = that path (dropping embedded data), then
// restarts kubelet.service. Nothing happens without the file. InvalidArgument when kubelet.conf
// has no current context or user.
Status EnableClientCertRotation(util::Host& host, util::Printer& out,
                                const KubeletFinalizeInput& in);

}  // namespace kkadm::phases
