// The KubeletConfiguration kubeadm writes to /var/lib/kubelet/config.yaml: kubeadm's defaults
// under the user's kubelet.config.k8s.io/v1beta1 document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr std::string_view kKubeletConfigName = "config.yaml";
inline constexpr std::string_view kKubeletConfigApiVersion = "kubelet.config.k8s.io/v1beta1";
inline constexpr std::string_view kKubeletConfigKind = "KubeletConfiguration";
// systemd-resolved's real upstream list; the kubelet must not hand pods the 127.0.0.53 local
// resolver.
inline constexpr std::string_view kSystemdResolvConf = "/run/systemd/resolve/resolv.conf";

// The 10th address of the first CIDR of `service_subnet` ("10.96.0.0/12" -> "10.96.0.10",
// "fd00::/108" -> "fd00::a"). InvalidArgument for a malformed or too small subnet.
Result<std::string> ClusterDnsIp(const std::string& service_subnet);

struct KubeletConfigInput {
  const config::ClusterConfiguration& cluster;
  const nlohmann::json& user;   // cfg.component_configs.kubelet; null when none was given
  std::string static_pod_path;  // "/etc/kubernetes/manifests"
  bool systemd_resolv_conf;     // kSystemdResolvConf exists on the node
};

// kubeadm's defaults (staticPodPath, clusterDNS, clusterDomain, x509 clientCAFile
// <certificatesDir>/ca.crt, anonymous off, webhook authn/authz, healthz 127.0.0.1:10248,
// readOnlyPort 0, cgroupDriver systemd, resolvConf when systemd-resolved's file exists) with the
// user's document laid over them: a user value wins, objects merge key by key, and an empty
// string or null counts as unset. rotateCertificates is always true. InvalidArgument when the
// user document is not an object or names another apiVersion/kind.
Result<nlohmann::json> BuildKubeletConfiguration(const KubeletConfigInput& in);

}  // namespace kkadm::phases
