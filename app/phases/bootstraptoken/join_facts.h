// What `kkadm token create` learns from the cluster and the node before it makes a join token
// or user-data: the ClusterConfiguration (controlPlaneEndpoint, certificate paths), the CRI socket
// the nodes use, and whether a token can join a node as it is meant to.
#pragma once

#include <string>

#include "app/config/types.h"
#include "app/util/file_system.h"
#include "app/util/kube_client.h"
#include "app/util/status.h"

namespace kkadm::phases {

// The ClusterConfiguration stored in ConfigMap kube-system/kubeadm-config (upload-config), with
// kubeadm's defaults applied (token create, reset). NotFound when the ConfigMap or its
// ClusterConfiguration key is missing; InvalidArgument when the YAML does not decode or holds no
// ClusterConfiguration. Read-only.
Result<config::ClusterConfiguration> FetchClusterConfiguration(util::KubeClient& client);

// The CRI socket of the cluster's control-plane nodes (their kubeadm.alpha.kubernetes.io/cri-socket
// annotation) when they all name the same one; otherwise, or when the nodes cannot be listed,
// kubeadm's default unix:///var/run/containerd/containerd.sock. Read-only; never fails.
std::string ClusterCriSocket(util::KubeClient& client);

// A control-plane join needs the cluster's controlPlaneEndpoint (kubeadm refuses to add a
// control-plane node without one) and the shared CA keys on this node to upload.
// FailedPrecondition naming what is missing.
Status CheckControlPlaneJoin(const util::FileSystem& fs,
                             const config::ClusterConfiguration& cluster);

// A token a node joins with must sign cluster-info (usage "signing"), authenticate the kubelet's
// TLS bootstrap ("authentication") and carry kubeadm's node group
// system:bootstrappers:kubeadm:default-node-token (RBAC for kubeadm-config, CSRs, kubeadm-certs).
// InvalidArgument naming the flag otherwise.
Status CheckJoinUsagesAndGroups(const config::BootstrapToken& token);

}  // namespace kkadm::phases
