// The work of upload-config (kubeadm's phases/uploadconfig and the kubelet component config
// upload): the kubeadm-config and kubelet-config ConfigMaps, their RBAC, and the Node's CRI socket
// annotation.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "app/util/clock.h"
#include "app/util/kube_client.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kCriSocketAnnotation = "kubeadm.alpha.kubernetes.io/cri-socket";
inline constexpr const char* kComponentConfigHashAnnotation =
    "kubeadm.kubernetes.io/component-config.hash";

// "sha256:<hex>" over the ConfigMap's data keys in sorted order, each key followed by its value
// (kubeadm's ChecksumForConfigMap).
std::string ConfigMapChecksum(const nlohmann::json& config_map);

// ConfigMap kube-system/kubeadm-config {ClusterConfiguration: yaml} (create or update) and
// Role+RoleBinding kubeadm:nodes-kubeadm-config.
Status UploadKubeadmConfig(util::KubeClient& client, util::Printer& out,
                           const std::string& cluster_configuration_yaml);

// ConfigMap kube-system/kubelet-config {kubelet: yaml} signed with the component-config hash,
// and Role+RoleBinding kubeadm:kubelet-config.
Status UploadKubeletConfig(util::KubeClient& client, util::Printer& out,
                           const std::string& kubelet_configuration_yaml);

// Merge-patches the Node's annotation kubeadm.alpha.kubernetes.io/cri-socket, retrying every
// 500 ms while the Node does not exist yet, for at most `timeout`.
Status AnnotateCriSocket(util::KubeClient& client, util::Clock& clock, const std::string& node_name,
                         const std::string& cri_socket, std::chrono::milliseconds timeout);

}  // namespace kkadm::phases
