// The hostPath volumes of the control-plane Pods (kubeadm's controlplane/volumes.go).
#pragma once

#include <string>

#include "app/phases/controlplane/static_pod_input.h"
#include "app/util/static_pod.h"

namespace kkadm::phases {

// The volumes of `component` (kube-apiserver, kube-controller-manager or kube-scheduler):
// certificates dir, /etc/ssl/certs, the distribution CA directories that exist on the node,
// kubeconfig files, the flexvolume dir, the external etcd certificate dirs, then the user's
// extraVolumes replacing same-named defaults. InvalidArgument for a relative extraVolumes path or
// an unknown component.
Result<util::VolumeMap> ControlPlaneVolumes(const std::string& component,
                                            const StaticPodInput& input);

// Directories holding the external etcd CA/cert/key files that no default volume covers, deepest
// duplicates folded into their parents, sorted; they become etcd-certs-0, etcd-certs-1, ...
std::vector<std::string> ExternalEtcdCertDirs(const config::ExternalEtcd& etcd,
                                              const std::string& certificates_dir);

}  // namespace kkadm::phases
