// control-plane-prepare of `kkadm join --control-plane` (kubeadm's
// phases/join/controlplaneprepare.go and copycerts.DownloadCerts): the shared certificates, the
// node's own certificates and kubeconfigs, and the control-plane static Pods. Knows nothing of the
// workflow engine. Every step reuses what is already valid, so a resumed join redoes nothing.
#pragma once

#include <string>

#include "app/phases/join/join_data.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

// GETs Secret kube-system/kubeadm-certs, decrypts it with the 64-hex-character certificate key and
// writes each file under the cluster's certificate directory (keys 0600, certificates 0644),
// printing kubeadm's [download-certs] lines. Errors: kubeadm's "Secret "kubeadm-certs" was not
// found ... This Secret might have expired ..." text; "error decoding secret data with provided
// key:
// ..." for a wrong key.
Status DownloadCerts(util::KubeClient& client, util::FileSystem& fs, util::Printer& out,
                     const config::ClusterConfiguration& cluster,
                     const std::string& certificate_key);

// Checks, writing nothing, that the command's patches apply to every object a control-plane join
// writes (the control-plane and etcd Pods, the KubeletConfiguration): run before its first file is
// written, so that a patch that does not apply leaves the node untouched. A no-op for a worker.
Status CheckControlPlaneJoinPatches(JoinData& data);

// The phases' work, each a no-op for a worker join.
Status RunDownloadCerts(JoinData& data);  // only with a certificate key
Status RunPrepareCerts(JoinData& data);   // every missing CA-signed certificate and the sa keys
Status RunPrepareKubeconfigs(
    JoinData& data);  // admin.conf, controller-manager.conf, scheduler.conf
Status RunPrepareControlPlane(JoinData& data);  // the three control-plane static Pods

}  // namespace kkadm::phases
