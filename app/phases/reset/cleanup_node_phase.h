// The `cleanup-node` phase of `kkadm reset`.
#pragma once

#include <string>
#include <vector>

#include "app/phases/reset/reset_data.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

// "cleanup-node" (alias "cleanupnode"): stops the kubelet, unmounts below /var/lib/kubelet, and
// deletes the contents of kubeadm's directories and its kubeconfig files (below).
// Never fails: what it could not do goes to data.left_behind.
workflow::Phase NewCleanupNodePhase(ResetData& data);

}  // namespace kkadm::phases

namespace kkadm::phases::reset {

// Stops kubelet.service through the init system, which says so ("[reset] Stopping the kubelet
// service"). A unit that does not exist is fine; any other failure is added to data.left_behind.
void StopKubelet(ResetData& data);

// Stops and removes every pod sandbox and its containers from the container runtime at
// data.cfg.criSocket (detected as kubeadm does when empty), under the node root; what remains
// goes to data.left_behind. No socket there: nothing to remove, said on one line.
void RemoveContainers(ResetData& data);

// Unmounts every mount point below data.kubelet_dir (unmountFlags from the configuration)
// through the host's Mounter, which says so, then checks that none is left. True when none is;
// otherwise each mount that stayed, and the kubelet directory itself (whose contents must then not
// be deleted), are added to data.left_behind.
bool UnmountKubeletDir(ResetData& data);

// kubeadm's directories to empty, in its order: the manifest directory, the kubelet directory
// (only when `kubelet_unmounted`), the certificate directory, /etc/kubernetes/tmp with
// cleanupTmpDir, and (kkadm) /etc/cni/net.d with --cleanup-cni.
std::vector<std::string> DirectoriesToClean(const ResetData& data, bool kubelet_unmounted);

// kubeadm's kubeconfig files: admin, super-admin, kubelet, bootstrap-kubelet, controller-manager,
// scheduler (.conf) under data.kubeconfig_dir.
std::vector<std::string> FilesToDelete(const ResetData& data);

// The whole phase. With kkadm's journal (data.made): the units kkadm started or enabled are
// stopped or disabled (no call to the init system when it recorded none), RemoveContainers (all
// the pods in the CRI: the kubelet kkadm started ran them), UnmountKubeletDir,
// --cleanup-tmp-dir and --cleanup-cni as below, then journal::UndoFiles removes exactly what
// kkadm made (the kubelet's and the local etcd's state with a directory kkadm created) and kkadm's
// own state last; what it kept on purpose goes to data.kept and data.removed_changed.
// Without it, as kubeadm: StopKubelet, RemoveContainers, UnmountKubeletDir, the etcd data
// directory emptied again when remove-etcd-member emptied it (etcd was still running then), the
// non-default certificate directory warning, then the contents of DirectoriesToClean and the
// FilesToDelete, through the
// host's TreeRemover (which never follows a symbolic link and never enters another mount, and says
// what it deletes). Never fails: everything it could not do is in data.left_behind. Idempotent:
// what is already gone is fine. With the dry run's seams it changes nothing and they print
// kubeadm's "Would ..." lines.
Status RunCleanupNode(ResetData& data);

}  // namespace kkadm::phases::reset
