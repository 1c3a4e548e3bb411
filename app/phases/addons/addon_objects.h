// The objects of kubeadm's essential addons (CoreDNS, kube-proxy), built from the YAML bases in
// manifests/addons/ and filled in from the configuration; and installing or printing them.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/kube_client.h"
#include "app/util/patches/patcher.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

// The Corefile kubeadm writes for `dns_domain`, forwarding to /etc/resolv.conf.
std::string Corefile(const std::string& dns_domain);

// In kubeadm's creation order: ConfigMap coredns, ClusterRole system:coredns, ClusterRoleBinding
// system:coredns, ServiceAccount coredns, Deployment coredns, Service kube-dns.
Result<std::vector<nlohmann::json>> CoreDnsObjects(const config::ClusterConfiguration& cluster);

// The patch target of the CoreDNS Deployment, as kubeadm names it.
inline constexpr const char* kCoreDnsDeploymentTarget = "corednsdeployment";

// Applies the patches of target "corednsdeployment" to the Deployment among CoreDnsObjects'
// `objects`, as kubeadm patches it before it prints or creates it (printing kubeadm's [patches]
// lines). Error: "could not apply patches to the CoreDNS Deployment: <file>: <problem>".
Status PatchCoreDnsDeployment(const util::patches::Patcher& patches,
                              std::vector<nlohmann::json>& objects);

// Checks, printing and creating nothing, that the CoreDNS Deployment patches apply: run before a
// command writes its first file.
Status CheckCoreDnsPatches(const config::ClusterConfiguration& cluster,
                           const util::patches::Patcher& patches);

// The KubeProxyConfiguration: kubeadm's marshalled defaults (bindAddress 0.0.0.0 or :: for an
// IPv6 advertise address, clusterCIDR = podSubnet, kubeconfig /var/lib/kube-proxy/kubeconfig.conf)
// with `user` laid over (objects merge key by key, user values win).
Result<nlohmann::json> KubeProxyConfiguration(const config::ClusterConfiguration& cluster,
                                              const config::APIEndpoint& local_endpoint,
                                              const nlohmann::json& user);

// In kubeadm's order: ServiceAccount kube-proxy, CRB kubeadm:node-proxier, Role+RoleBinding
// kube-proxy, ConfigMap kube-proxy (config.conf, kubeconfig.conf), DaemonSet kube-proxy.
Result<std::vector<nlohmann::json>> KubeProxyObjects(const config::ClusterConfiguration& cluster,
                                                     const config::APIEndpoint& local_endpoint,
                                                     const nlohmann::json& user_config);

// Prints the objects as YAML documents, each preceded by "---".
void PrintObjects(util::Printer& out, const std::vector<nlohmann::json>& objects);

// Creates or updates every object; the CoreDNS ConfigMap is only created when absent (kubeadm
// keeps a user-edited Corefile).
Status ApplyAddonObjects(util::KubeClient& client, const std::vector<nlohmann::json>& objects);

}  // namespace kkadm::phases
