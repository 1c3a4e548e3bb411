// The kubeadm certificate table and the SAN computation for apiserver and etcd certificates.
#include "app/phases/certs/cert_list.h"

#include <spdlog/spdlog.h>

#include <map>
#include <utility>

#include "app/util/net_rules.h"

namespace kkadm::phases::certs {
namespace {

using util::pki::AltNames;
using util::pki::ExtKeyUsage;

Result<std::string> AdvertiseIp(const config::InitConfiguration& cfg) {
  auto ip = util::CanonicalIp(cfg.local_api_endpoint.advertise_address);
  if (!ip) {
    return InvalidArgument("error parsing LocalAPIEndpoint AdvertiseAddress " +
                           cfg.local_api_endpoint.advertise_address +
                           ": is not a valid textual representation of an IP address");
  }
  return *ip;
}

// The API server's service IP: index 1 of the first (possibly only) service subnet.
Result<std::string> APIServerVirtualIp(const std::string& service_subnet) {
  std::string first = service_subnet.substr(0, service_subnet.find(','));
  auto ip = util::IndexedIpInCidr(first, 1);
  if (!ip)
    return ip.error().Wrap("unable to get first IP address from the given CIDR: " + service_subnet);
  return ip;
}

void AppendSansWarning(AltNames& names, const std::vector<std::string>& sans,
                       const char* cert_name) {
  for (const auto& skipped : util::pki::AppendSans(names, sans)) {
    spdlog::warn(
        "[certificates] WARNING: '{}' was not added to the '{}' SAN, because it is not a valid IP "
        "or "
        "RFC-1123 compliant DNS entry",
        skipped, cert_name);
  }
}

}  // namespace

const std::vector<CertSpec>& CertList() {
  static const std::vector<CertSpec> kList = {
      {"ca", "self-signed Kubernetes CA to provision identities for other Kubernetes components",
       "ca", ""},
      {"apiserver", "certificate for serving the Kubernetes API", "apiserver", "ca"},
      {"apiserver-kubelet-client", "certificate for the API server to connect to kubelet",
       "apiserver-kubelet-client", "ca"},
      {"front-proxy-ca", "self-signed CA to provision identities for front proxy", "front-proxy-ca",
       ""},
      {"front-proxy-client", "certificate for the front proxy client", "front-proxy-client",
       "front-proxy-ca"},
      {"etcd-ca", "self-signed CA to provision identities for etcd", "etcd/ca", ""},
      {"etcd-server", "certificate for serving etcd", "etcd/server", "etcd-ca"},
      {"etcd-peer", "certificate for etcd nodes to communicate with each other", "etcd/peer",
       "etcd-ca"},
      {"etcd-healthcheck-client", "certificate for liveness probes to healthcheck etcd",
       "etcd/healthcheck-client", "etcd-ca"},
      {"apiserver-etcd-client", "certificate the apiserver uses to access etcd",
       "apiserver-etcd-client", "etcd-ca"},
  };
  return kList;
}

const CertSpec* FindCertSpec(std::string_view name) {
  for (const auto& spec : CertList()) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

util::pki::KeyType KeyTypeFor(config::EncryptionAlgorithm algorithm) {
  switch (algorithm) {
    case config::EncryptionAlgorithm::kRsa2048:
      return util::pki::KeyType::kRsa2048;
    case config::EncryptionAlgorithm::kRsa3072:
      return util::pki::KeyType::kRsa3072;
    case config::EncryptionAlgorithm::kRsa4096:
      return util::pki::KeyType::kRsa4096;
    case config::EncryptionAlgorithm::kEcdsaP256:
      return util::pki::KeyType::kEcdsaP256;
    case config::EncryptionAlgorithm::kEcdsaP384:
      return util::pki::KeyType::kEcdsaP384;
  }
  return util::pki::KeyType::kRsa2048;
}

Result<AltNames> GetAPIServerAltNames(const config::InitConfiguration& cfg) {
  auto advertise = AdvertiseIp(cfg);
  if (!advertise) return advertise.error();
  auto vip = APIServerVirtualIp(cfg.cluster.networking.service_subnet);
  if (!vip) return vip.error();
  const std::string& domain = cfg.cluster.networking.dns_domain;
  AltNames names{{cfg.node_registration.name, "kubernetes", "kubernetes.default",
                  "kubernetes.default.svc", "kubernetes.default.svc." + domain},
                 {*vip, *advertise}};
  if (!cfg.cluster.control_plane_endpoint.empty()) {
    auto hp = util::ParseHostPort(cfg.cluster.control_plane_endpoint);
    if (!hp) {
      return hp.error().Wrap("error parsing cluster controlPlaneEndpoint \"" +
                             cfg.cluster.control_plane_endpoint + "\"");
    }
    if (auto ip = util::CanonicalIp(hp->host)) {
      names.ips.push_back(*ip);
    } else {
      names.dns_names.push_back(hp->host);
    }
  }
  AppendSansWarning(names, cfg.cluster.api_server.cert_sans, "apiserver.crt");
  return names;
}

Result<AltNames> GetEtcdAltNames(const config::InitConfiguration& cfg, bool peer) {
  auto advertise = AdvertiseIp(cfg);
  if (!advertise) return advertise.error();
  AltNames names{{cfg.node_registration.name, "localhost"}, {*advertise, "127.0.0.1", "::1"}};
  if (const auto& local = cfg.cluster.etcd.local) {
    if (peer) {
      AppendSansWarning(names, local->peer_cert_sans, "etcd/peer.crt");
    } else {
      AppendSansWarning(names, local->server_cert_sans, "etcd/server.crt");
    }
  }
  return names;
}

Result<util::pki::CertConfig> GetCertConfig(const CertSpec& spec,
                                            const config::InitConfiguration& cfg) {
  static const std::map<std::string, std::pair<std::string, std::vector<std::string>>> kSubjects = {
      {"ca", {"kubernetes", {}}},
      {"apiserver", {"kube-apiserver", {}}},
      {"apiserver-kubelet-client", {"kube-apiserver-kubelet-client", {"kubeadm:cluster-admins"}}},
      {"front-proxy-ca", {"front-proxy-ca", {}}},
      {"front-proxy-client", {"front-proxy-client", {}}},
      {"etcd-ca", {"etcd-ca", {}}},
      {"etcd-healthcheck-client", {"kube-etcd-healthcheck-client", {}}},
      {"apiserver-etcd-client", {"kube-apiserver-etcd-client", {}}},
  };
  util::pki::CertConfig c;
  c.is_ca = spec.IsCa();
  if (auto it = kSubjects.find(spec.name); it != kSubjects.end()) {
    c.common_name = it->second.first;
    c.organizations = it->second.second;
  }
  if (!c.is_ca) c.usages = {ExtKeyUsage::kClientAuth};
  Result<AltNames> names = AltNames{};
  if (spec.name == "apiserver") {
    c.usages = {ExtKeyUsage::kServerAuth};
    names = GetAPIServerAltNames(cfg);
  } else if (spec.name == "etcd-server" || spec.name == "etcd-peer") {
    // etcd checks clientAuth on its own server certificate too.
    c.usages = {ExtKeyUsage::kServerAuth, ExtKeyUsage::kClientAuth};
    c.common_name = cfg.node_registration.name;
    names = GetEtcdAltNames(cfg, spec.name == "etcd-peer");
  }
  if (!names) return names.error();
  c.dns_names = std::move(names->dns_names);
  c.ips = std::move(names->ips);
  return c;
}

}  // namespace kkadm::phases::certs
