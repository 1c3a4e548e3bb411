// The control-plane pre-flight check list (kubeadm's InitNodeChecks + addCommonChecks).
#include "app/phases/preflight/control_plane_checks.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <string>
#include <vector>

#include "app/phases/preflight/checks_files.h"
#include "app/phases/preflight/checks_proxy.h"
#include "app/phases/preflight/checks_services.h"
#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/run_checks.h"
#include "app/util/net_rules.h"
#include "app/util/strings.h"
#include "build_info.h"

namespace kkadm::phases::preflight {
namespace {

constexpr int kControlPlaneNumCpu = 2;
constexpr std::uint64_t kControlPlaneMemMb = 1700;
constexpr int kKubeSchedulerPort = 10259;
constexpr int kKubeControllerManagerPort = 10257;
constexpr int kKubeletPort = 10250;
constexpr int kEtcdListenClientPort = 2379;
constexpr int kEtcdListenPeerPort = 2380;

// 4 or 6 for an IP address or CIDR (netutils.IsIPv4/IsIPv6 of ParseIPSloppy/ParseCIDRSloppy), 0
// when it is neither.
int IpFamily(const std::string& address_or_cidr) {
  if (auto cidr = util::ParseCidr(address_or_cidr)) return cidr->IsIpv6() ? 6 : 4;
  if (auto ip = util::ParseIp(address_or_cidr)) return ip->size() == 16 ? 6 : 4;
  return 0;
}

bool BeforeKubernetes132(const std::string& version) {
  auto v = ParseSemVer(version);
  return v && (v->major < 1 || (v->major == 1 && v->minor < 32));
}

void AddForwardingChecks(const config::InitConfiguration& cfg, CheckList& checks) {
  const auto& net = cfg.cluster.networking;
  bool v4 = false;
  bool v6 = false;
  for (const auto* list : {&net.service_subnet, &net.pod_subnet}) {
    for (const auto& cidr : util::SplitComma(*list)) {
      v4 = v4 || IpFamily(cidr) == 4;
      v6 = v6 || IpFamily(cidr) == 6;
    }
  }
  int advertise = IpFamily(cfg.local_api_endpoint.advertise_address);
  v4 = v4 || advertise == 4;
  v6 = v6 || advertise == 6;
  if (v4) checks.push_back(NewFileContentCheck("/proc/sys/net/ipv4/ip_forward", "1"));
  if (v6) checks.push_back(NewFileContentCheck("/proc/sys/net/ipv6/conf/default/forwarding", "1"));
}

void AddEtcdChecks(const config::InitConfiguration& cfg, const NodeCheckOptions& options,
                   CheckList& checks) {
  const auto& etcd = cfg.cluster.etcd;
  if (etcd.local) {
    checks.push_back(NewPortOpenCheck(kEtcdListenClientPort));
    checks.push_back(NewPortOpenCheck(kEtcdListenPeerPort));
    checks.push_back(NewDirAvailableCheck(etcd.local->data_dir));
  }
  if (etcd.external && !(options.secondary_control_plane && options.download_certs)) {
    for (const auto* file :
         {&etcd.external->ca_file, &etcd.external->cert_file, &etcd.external->key_file}) {
      if (!file->empty())
        checks.push_back(NewFileExistingCheck(*file, "ExternalEtcdClientCertificates"));
    }
  }
}

}  // namespace

void AddCommonChecks(const config::NodeRegistration& node, const std::string& kubernetes_version,
                     CheckList& checks, const CriCheckOptions& cri) {
  checks.push_back(NewCriCheck(node.cri_socket, cri));
  checks.push_back(NewSwapCheck());
  // kube-proxy stopped needing conntrack in Kubernetes 1.32.
  if (BeforeKubernetes132(kubernetes_version)) {
    checks.push_back(NewInPathCheck("conntrack", true));
  }
  for (const char* binary : {"ip", "iptables", "mount", "nsenter"}) {
    checks.push_back(NewInPathCheck(binary, true));
  }
  for (const char* binary : {"ebtables", "ethtool", "socat", "tc", "touch"}) {
    checks.push_back(NewInPathCheck(binary, false));
  }
  checks.push_back(NewHostnameCheck(node.name));
  checks.push_back(NewServiceCheck("kubelet"));
  checks.push_back(NewPortOpenCheck(kKubeletPort));
}

CheckList InitNodeChecks(const config::InitConfiguration& cfg, const NodeCheckOptions& options) {
  int bind_port = cfg.local_api_endpoint.bind_port;
  CheckList checks;
  checks.push_back(NewNumCpuCheck(kControlPlaneNumCpu));
  checks.push_back(NewMemCheck(kControlPlaneMemMb));
  checks.push_back(
      NewKubernetesVersionCheck(cfg.cluster.kubernetes_version, build_info::kKubernetesVersion));
  checks.push_back(NewFirewalldCheck({bind_port, kKubeletPort}));
  for (int port : {bind_port, kKubeSchedulerPort, kKubeControllerManagerPort}) {
    checks.push_back(NewPortOpenCheck(port));
  }
  for (const char* component :
       {"kube-apiserver", "kube-controller-manager", "kube-scheduler", "etcd"}) {
    checks.push_back(NewFileAvailableCheck(options.manifest_dir + "/" + component + ".yaml"));
  }
  checks.push_back(NewHttpProxyCheck(cfg.local_api_endpoint.advertise_address));
  for (const auto* list :
       {&cfg.cluster.networking.service_subnet, &cfg.cluster.networking.pod_subnet}) {
    for (const auto& cidr : util::SplitComma(*list)) checks.push_back(NewHttpProxyCidrCheck(cidr));
  }
  if (!options.secondary_control_plane) {
    AddCommonChecks(cfg.node_registration, cfg.cluster.kubernetes_version, checks, options.cri);
    AddForwardingChecks(cfg, checks);
  }
  AddEtcdChecks(cfg, options, checks);
  return checks;
}

std::set<std::string> ChecksFailedByOwnWork(const OwnWork& own, const OwnWorkPlaces& places) {
  std::set<std::string> names;
  for (const std::string& file : own.files) names.insert(PathCheckName("FileAvailable", file));
  for (const std::string& dir : own.dirs) names.insert(PathCheckName("DirAvailable", dir));
  const std::pair<const char*, std::vector<int>> pods[] = {
      {"kube-apiserver", {places.apiserver_port}},
      {"kube-controller-manager", {kKubeControllerManagerPort}},
      {"kube-scheduler", {kKubeSchedulerPort}},
      {"etcd", {kEtcdListenClientPort, kEtcdListenPeerPort}}};
  for (const auto& [pod, ports] : pods) {
    if (!own.HasFile(places.manifest_dir + "/" + pod + ".yaml")) continue;
    for (int port : ports) names.insert("Port-" + std::to_string(port));
  }
  if (own.HasUnit("kubelet.service")) {
    names.insert("Port-" + std::to_string(kKubeletPort));
    names.insert(PathCheckName("FileAvailable", places.kubelet_kubeconfig));
  }
  return names;
}

void LeaveOutChecksOfOwnWork(CheckList& checks, const OwnWork& own, const OwnWorkPlaces& places,
                             util::Printer& out) {
  const std::set<std::string> names = ChecksFailedByOwnWork(own, places);
  std::vector<std::string> dropped;
  CheckList kept;
  for (auto& check : checks) {
    std::string name = check->Name();
    if (names.contains(name)) {
      dropped.push_back(std::move(name));
    } else {
      kept.push_back(std::move(check));
    }
  }
  checks = std::move(kept);
  if (dropped.empty()) return;
  out.Line("preflight", fmt::format("Leaving out the checks that only kkadm's own earlier work on "
                                    "this node fails (recorded in {}): {}",
                                    own.recorded_in, fmt::join(dropped, ", ")));
}

}  // namespace kkadm::phases::preflight
