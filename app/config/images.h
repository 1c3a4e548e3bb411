// Container image names kkadm deploys, as a ClusterConfiguration selects them (kubeadm's
// images/images.go and its version constants).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/config/types.h"

namespace kkadm::config {

inline constexpr const char* kDefaultImageRepository = "registry.k8s.io";
inline constexpr const char* kCoreDNSVersion = "v1.11.3";
inline constexpr const char* kPauseVersion = "3.10";
// etcd used when the Kubernetes version cannot be parsed (kubeadm's DefaultEtcdVersion).
inline constexpr const char* kDefaultEtcdVersion = "3.5.16-0";

// The minor of a version "v1.32.0" (the "v" optional; anything may follow a "-" or "+" but a line
// break); nullopt for another form or a minor beyond int.
std::optional<int> KubernetesMinorVersion(std::string_view version);

// The etcd image tag kubeadm 1.32 pairs with `kubernetes_version` ("v1.32.0" -> "3.5.16-0"); a
// minor outside kubeadm's table gets the nearest entry, as kubeadm does (with a debug log).
std::string EtcdVersionFor(const std::string& kubernetes_version);

// <imageRepository>/<component>:<kubernetesVersion> ('+' in the version becomes '_').
std::string KubernetesImage(const std::string& component, const ClusterConfiguration& cfg);

// <etcd.local.imageRepository or imageRepository>/etcd:<etcd.local.imageTag or EtcdVersionFor>.
std::string EtcdImage(const ClusterConfiguration& cfg);

// <dns.imageRepository or imageRepository>/coredns:<dns.imageTag or v1.11.3>; the default
// registry keeps CoreDNS one level deeper: registry.k8s.io/coredns/coredns.
std::string DNSImage(const ClusterConfiguration& cfg);

// <imageRepository>/pause:3.10.
std::string PauseImage(const ClusterConfiguration& cfg);

// What `kkadm config images list` prints and preflight pulls, in kubeadm's order: kube-apiserver,
// kube-controller-manager, kube-scheduler, kube-proxy (unless proxy.disabled), coredns (unless
// dns.disabled), pause, etcd (unless external).
std::vector<std::string> ControlPlaneImages(const ClusterConfiguration& cfg);

}  // namespace kkadm::config
