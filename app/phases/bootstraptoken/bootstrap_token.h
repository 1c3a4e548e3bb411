// The work of the bootstrap-token phase (kubeadm's phases/bootstraptoken/{node,clusterinfo}):
// token Secrets, the RBAC that lets bootstrap tokens join nodes, and the cluster-info ConfigMap.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/file_system.h"
#include "app/util/kube_client.h"
#include "app/util/kubeconfig.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

// Creates or replaces the Secret of every token. With `fail_if_exists`, an existing Secret is an
// error ("a token with id "<id>" already exists") — `kkadm token create` uses that.
Status UpdateOrCreateTokens(util::KubeClient& client, bool fail_if_exists,
                            const std::vector<config::BootstrapToken>& tokens,
                            std::chrono::system_clock::time_point now);

// ClusterRole+CRB kubeadm:get-nodes, CRBs kubeadm:kubelet-bootstrap,
// kubeadm:node-autoapprove-bootstrap, kubeadm:node-autoapprove-certificate-rotation, printing
// kubeadm's "[bootstrap-token] Configured RBAC rules ..." line after each.
Status CreateBootstrapTokenRbac(util::KubeClient& client, util::Printer& out);

// The kubeconfig published in cluster-info: one cluster named "" with the server and CA data of
// `cluster` (admin.conf's, util::ReadCurrentCluster), as client-go's clientcmd.Write renders it.
std::string ClusterInfoKubeconfig(const util::KubeconfigCluster& cluster);

// ConfigMap kube-public/cluster-info (kept when it exists) and Role+RoleBinding
// kubeadm:bootstrap-signer-clusterinfo letting system:anonymous get it.
Status CreateClusterInfo(util::KubeClient& client, const util::FileSystem& fs,
                         const std::string& admin_kubeconfig_path, util::Printer& out);

// CRB kubeadm:cluster-admins -> cluster-admin for Group kubeadm:cluster-admins (admin.conf's
// group); an existing binding is kept.
Status EnsureAdminClusterRoleBinding(util::KubeClient& client);

}  // namespace kkadm::phases
