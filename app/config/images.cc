// Container image names (see images.h).
#include "app/config/images.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "app/util/version_numbers.h"

namespace kkadm::config {
namespace {

// kubeadm 1.32's SupportedEtcdVersion (constants.go): Kubernetes minor -> etcd image tag.
const std::map<int, std::string>& SupportedEtcdVersion() {
  static const std::map<int, std::string> kTable = {
      {30, "3.5.16-0"}, {31, "3.5.16-0"}, {32, "3.5.16-0"}};
  return kTable;
}

std::string GenericImage(const std::string& repository, const std::string& name,
                         const std::string& tag) {
  return repository + "/" + name + ":" + tag;
}

}  // namespace

std::optional<int> KubernetesMinorVersion(std::string_view version) {
  util::Scanner in(version);
  in.Consume('v');
  auto numbers = util::ConsumeVersionNumbers(in);
  if (!numbers ||
      !(in.AtEnd() || (in.ConsumeAnyOf("-+") && util::AllOf(in.rest(), util::IsNotLineBreak)))) {
    return std::nullopt;
  }
  return util::DigitsToInt(numbers->minor);
}

std::string EtcdVersionFor(const std::string& kubernetes_version) {
  auto minor = KubernetesMinorVersion(kubernetes_version);
  if (!minor) return kDefaultEtcdVersion;
  const auto& table = SupportedEtcdVersion();
  if (auto it = table.find(*minor); it != table.end()) return it->second;
  const auto& nearest = *minor < table.begin()->first ? *table.begin() : *table.rbegin();
  spdlog::debug(
      "WARNING: could not find officially supported version of etcd for Kubernetes {}, "
      "falling back to the nearest etcd version ({})",
      kubernetes_version, nearest.second);
  return nearest.second;
}

std::string KubernetesImage(const std::string& component, const ClusterConfiguration& cfg) {
  std::string tag = cfg.kubernetes_version;
  std::replace(tag.begin(), tag.end(), '+', '_');
  return GenericImage(cfg.image_repository, component, tag);
}

std::string EtcdImage(const ClusterConfiguration& cfg) {
  std::string repository = cfg.image_repository;
  std::string tag = EtcdVersionFor(cfg.kubernetes_version);
  if (cfg.etcd.local) {
    if (!cfg.etcd.local->image_repository.empty()) repository = cfg.etcd.local->image_repository;
    if (!cfg.etcd.local->image_tag.empty()) tag = cfg.etcd.local->image_tag;
  }
  return GenericImage(repository, "etcd", tag);
}

std::string DNSImage(const ClusterConfiguration& cfg) {
  std::string repository =
      cfg.dns.image_repository.empty() ? cfg.image_repository : cfg.dns.image_repository;
  // The official image moved from registry.k8s.io/coredns to registry.k8s.io/coredns/coredns.
  if (repository == kDefaultImageRepository) repository += "/coredns";
  const std::string tag = cfg.dns.image_tag.empty() ? kCoreDNSVersion : cfg.dns.image_tag;
  return GenericImage(repository, "coredns", tag);
}

std::string PauseImage(const ClusterConfiguration& cfg) {
  return GenericImage(cfg.image_repository, "pause", kPauseVersion);
}

std::vector<std::string> ControlPlaneImages(const ClusterConfiguration& cfg) {
  std::vector<std::string> images = {KubernetesImage("kube-apiserver", cfg),
                                     KubernetesImage("kube-controller-manager", cfg),
                                     KubernetesImage("kube-scheduler", cfg)};
  if (!cfg.proxy.disabled) images.push_back(KubernetesImage("kube-proxy", cfg));
  if (!cfg.dns.disabled) images.push_back(DNSImage(cfg));
  images.push_back(PauseImage(cfg));
  if (!cfg.etcd.external) images.push_back(EtcdImage(cfg));
  return images;
}

}  // namespace kkadm::config
