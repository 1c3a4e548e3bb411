// Control-plane command lines (see args.h); kubeadm's controlplane/manifests.go.
#include "app/phases/controlplane/args.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <sstream>

#include "app/util/net_rules.h"
#include "app/util/strings.h"

namespace kkadm::phases {
namespace {

using config::Arg;

std::vector<std::string> WithCommand(const std::string& binary, const std::vector<Arg>& base,
                                     const std::vector<Arg>& overrides) {
  std::vector<std::string> command = {binary};
  auto flags = util::ArgumentsToCommand(base, overrides);
  command.insert(command.end(), flags.begin(), flags.end());
  return command;
}

// etcd flags of kube-apiserver: the external cluster's endpoints and files, or the local member.
void AddEtcdArgs(const StaticPodInput& in, std::vector<Arg>& args) {
  const config::ClusterConfiguration& c = *in.cluster;
  if (c.etcd.external) {
    const config::ExternalEtcd& ext = *c.etcd.external;
    args.push_back({"etcd-servers", util::Join(ext.endpoints, ",")});
    if (!ext.ca_file.empty()) args.push_back({"etcd-cafile", ext.ca_file});
    if (!ext.cert_file.empty() && !ext.key_file.empty()) {
      args.push_back({"etcd-certfile", ext.cert_file});
      args.push_back({"etcd-keyfile", ext.key_file});
    }
    return;
  }
  // The local member listens on the loopback address of the advertise address's family.
  const std::string localhost = util::LocalhostFor(in.endpoint.advertise_address);
  std::string servers = "https://" + util::JoinHostPort(localhost, 2379);
  if (c.etcd.local) {
    if (auto v = util::GetArgValue(c.etcd.local->extra_args, "advertise-client-urls")) servers = *v;
  }
  const std::string& pki = c.certificates_dir;
  args.push_back({"etcd-servers", servers});
  args.push_back({"etcd-cafile", JoinPath(pki, "etcd/ca.crt")});
  args.push_back({"etcd-certfile", JoinPath(pki, "apiserver-etcd-client.crt")});
  args.push_back({"etcd-keyfile", JoinPath(pki, "apiserver-etcd-client.key")});
}

}  // namespace

std::string AuthorizationModes(const std::string& requested) {
  static const std::array<std::string, 6> kKnown = {"Node", "RBAC",        "Webhook",
                                                    "ABAC", "AlwaysAllow", "AlwaysDeny"};
  std::vector<std::string> modes;
  std::stringstream parts(requested);
  for (std::string mode; std::getline(parts, mode, ',');) {
    if (std::find(kKnown.begin(), kKnown.end(), mode) != kKnown.end()) {
      modes.push_back(mode);
    } else if (!mode.empty()) {
      spdlog::warn("ignoring unknown kube-apiserver authorization-mode \"{}\"", mode);
    }
  }
  if (modes.empty()) return "Node,RBAC";
  return util::Join(modes, ",");
}

std::vector<std::string> APIServerCommand(const StaticPodInput& in) {
  const config::ClusterConfiguration& c = *in.cluster;
  const std::string& pki = c.certificates_dir;
  std::vector<Arg> base = {
      {"advertise-address", in.endpoint.advertise_address},
      {"enable-admission-plugins", "NodeRestriction"},
      {"service-cluster-ip-range", c.networking.service_subnet},
      {"service-account-key-file", JoinPath(pki, "sa.pub")},
      {"service-account-signing-key-file", JoinPath(pki, "sa.key")},
      {"service-account-issuer", "https://kubernetes.default.svc." + c.networking.dns_domain},
      {"client-ca-file", JoinPath(pki, "ca.crt")},
      {"tls-cert-file", JoinPath(pki, "apiserver.crt")},
      {"tls-private-key-file", JoinPath(pki, "apiserver.key")},
      {"kubelet-client-certificate", JoinPath(pki, "apiserver-kubelet-client.crt")},
      {"kubelet-client-key", JoinPath(pki, "apiserver-kubelet-client.key")},
      {"enable-bootstrap-token-auth", "true"},
      {"secure-port", std::to_string(in.endpoint.bind_port)},
      {"allow-privileged", "true"},
      {"kubelet-preferred-address-types", "InternalIP,ExternalIP,Hostname"},
      {"requestheader-username-headers", "X-Remote-User"},
      {"requestheader-group-headers", "X-Remote-Group"},
      {"requestheader-extra-headers-prefix", "X-Remote-Extra-"},
      {"requestheader-client-ca-file", JoinPath(pki, "front-proxy-ca.crt")},
      {"requestheader-allowed-names", "front-proxy-client"},
      {"proxy-client-cert-file", JoinPath(pki, "front-proxy-client.crt")},
      {"proxy-client-key-file", JoinPath(pki, "front-proxy-client.key")},
  };
  AddEtcdArgs(in, base);
  std::vector<Arg> extra = c.api_server.component.extra_args;
  // authorization-mode is only set when no authorization-config file is given; the user's value
  // is filtered to modes kube-apiserver knows (kubeadm puts it among the overrides).
  if (util::GetArgValue(extra, "authorization-config").value_or("").empty()) {
    util::SetArgValue(
        extra, "authorization-mode",
        AuthorizationModes(util::GetArgValue(extra, "authorization-mode").value_or("")));
  }
  return WithCommand(kKubeAPIServer, base, extra);
}

namespace {

// The flags the controller-manager and the scheduler share: they serve on loopback, elect a
// leader, and use one kubeconfig for the API and for delegated authentication/authorization.
std::vector<Arg> LocalComponentArgs(const std::string& kubeconfig) {
  return {{"bind-address", "127.0.0.1"},
          {"leader-elect", "true"},
          {"kubeconfig", kubeconfig},
          {"authentication-kubeconfig", kubeconfig},
          {"authorization-kubeconfig", kubeconfig}};
}

}  // namespace

std::vector<std::string> ControllerManagerCommand(const StaticPodInput& in) {
  const config::ClusterConfiguration& c = *in.cluster;
  const std::string& pki = c.certificates_dir;
  const std::string kubeconfig = JoinPath(kKubernetesDir, "controller-manager.conf");
  std::vector<Arg> base = LocalComponentArgs(kubeconfig);
  base.insert(base.end(), {
                              {"client-ca-file", JoinPath(pki, "ca.crt")},
                              {"requestheader-client-ca-file", JoinPath(pki, "front-proxy-ca.crt")},
                              {"root-ca-file", JoinPath(pki, "ca.crt")},
                              {"service-account-private-key-file", JoinPath(pki, "sa.key")},
                              {"cluster-signing-cert-file", JoinPath(pki, "ca.crt")},
                              {"cluster-signing-key-file", JoinPath(pki, "ca.key")},
                              {"use-service-account-credentials", "true"},
                              {"controllers", "*,bootstrapsigner,tokencleaner"},
                          });
  // With an external CA there is no ca.key: empty values keep the csrsigning controller off.
  if (in.external_ca) {
    util::SetArgValue(base, "cluster-signing-cert-file", "");
    util::SetArgValue(base, "cluster-signing-key-file", "");
  }
  // Let the controller-manager allocate node CIDRs from the Pod network.
  if (!c.networking.pod_subnet.empty()) {
    base.push_back({"allocate-node-cidrs", "true"});
    base.push_back({"cluster-cidr", c.networking.pod_subnet});
    if (!c.networking.service_subnet.empty()) {
      base.push_back({"service-cluster-ip-range", c.networking.service_subnet});
    }
  }
  if (!c.cluster_name.empty()) base.push_back({"cluster-name", c.cluster_name});
  return WithCommand(kKubeControllerManager, base, c.controller_manager.extra_args);
}

std::vector<std::string> SchedulerCommand(const StaticPodInput& in) {
  const std::string kubeconfig = JoinPath(kKubernetesDir, "scheduler.conf");
  return WithCommand(kKubeScheduler, LocalComponentArgs(kubeconfig),
                     in.cluster->scheduler.extra_args);
}

}  // namespace kkadm::phases
