// The local etcd static Pod (see etcd_manifest.h).
#include "app/phases/etcd/etcd_manifest.h"

#include <algorithm>
#include <optional>
#include <string_view>

#include "app/config/images.h"
#include "app/util/ascii.h"
#include "app/util/net_rules.h"
#include "app/util/version_numbers.h"

namespace kkadm::phases {
namespace {

using config::Arg;
using nlohmann::json;

struct ProbeEndpoint {
  std::string host;
  int port = kEtcdMetricsPort;
  std::string scheme = "HTTP";
};

struct UrlParts {
  std::string_view scheme;
  std::string_view host;  // "[v6]" keeps its brackets
  std::string_view port;  // digits, possibly none
};

// ([A-Za-z][A-Za-z0-9+.-]*)://(\[[^\]]*\]|[^:/]*)(:(\d*))?.* with the groups kept: the host is
// "[...]" if that is closed and no line break follows it, else what precedes the first ':' or '/'.
std::optional<UrlParts> SplitUrl(std::string_view url) {
  util::Scanner in(url);
  UrlParts parts;
  parts.scheme = in.Run(util::IsAsciiAlpha, [](char c) {
    return util::IsAsciiAlnum(c) || c == '+' || c == '.' || c == '-';
  });
  if (parts.scheme.empty() || !in.Consume("://")) return std::nullopt;
  const std::string_view rest = in.rest();
  constexpr size_t kNone = std::string_view::npos;
  const size_t close = rest.substr(0, 1) == "[" ? rest.find(']') : kNone;
  size_t host_end = close == kNone ? kNone : close + 1;
  if (host_end == kNone || !util::AllOf(rest.substr(host_end), util::IsNotLineBreak)) {
    host_end = std::min(rest.find_first_of(":/"), rest.size());
    if (!util::AllOf(rest.substr(host_end), util::IsNotLineBreak)) return std::nullopt;
  }
  parts.host = rest.substr(0, host_end);
  util::Scanner after(rest.substr(host_end));
  if (after.Consume(':')) parts.port = after.Span(util::IsAsciiDigit);
  return parts;
}

// The metrics endpoint the probes use: the first listen-metrics-urls entry when the user sets it
// (kubeadm's GetEtcdProbeEndpoint), else http://<localhost>:2381.
ProbeEndpoint EtcdProbeEndpoint(const StaticPodInput& in) {
  ProbeEndpoint probe{.host = util::LocalhostFor(in.endpoint.advertise_address)};
  auto urls = util::GetArgValue(in.cluster->etcd.local->extra_args, "listen-metrics-urls");
  if (!urls) return probe;
  const std::string first = urls->substr(0, urls->find(','));
  const auto url = SplitUrl(first);
  if (!url) return probe;
  if (url->scheme == "https") probe.scheme = "HTTPS";
  std::string host(url->host);
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  if (!host.empty()) probe.host = host;
  const std::string port(url->port);
  if (!port.empty() && port.size() <= 5 && std::stoi(port) > 0 && std::stoi(port) < 65536) {
    probe.port = std::stoi(port);
  }
  return probe;
}

// The etcd the Pod will run: etcd.local.imageTag, else the tag kubeadm pairs with the version.
std::string EtcdTag(const config::ClusterConfiguration& cluster) {
  const std::string& tag = cluster.etcd.local->image_tag;
  return tag.empty() ? config::EtcdVersionFor(cluster.kubernetes_version) : tag;
}

void FillProbes(json& container, const StaticPodInput& in) {
  if (!EtcdServesLivezReadyz(EtcdTag(*in.cluster))) {
    // kubeadm 1.30's probes, the last it made before etcd had /livez and /readyz.
    container.erase("readinessProbe");
    container["livenessProbe"]["httpGet"]["path"] = "/health?exclude=NOSPACE&serializable=true";
    container["startupProbe"]["httpGet"]["path"] = "/health?serializable=false";
  }
  const ProbeEndpoint probe = EtcdProbeEndpoint(in);
  for (const char* name : {"livenessProbe", "readinessProbe", "startupProbe"}) {
    if (!container.contains(name)) continue;
    util::SetProbeTarget(container[name], probe.host, probe.port);
    container[name]["httpGet"]["scheme"] = probe.scheme;
  }
  container["startupProbe"]["failureThreshold"] =
      util::StartupFailureThreshold(in.health_check_timeout);
}

}  // namespace

bool EtcdServesLivezReadyz(std::string_view image_tag) {
  util::Scanner in(image_tag);
  in.Consume('v');
  const auto numbers = util::ConsumeVersionNumbers(in);
  if (!numbers) return true;
  const auto major = util::DigitsToInt(numbers->major);
  const auto minor = util::DigitsToInt(numbers->minor);
  const auto patch = util::DigitsToInt(numbers->patch);
  if (!major || !minor || !patch) return true;
  if (*major != 3) return *major > 3;
  if (*minor == 4) return *patch >= 29;
  if (*minor == 5) return *patch >= 11;
  return *minor > 5;
}

std::string EtcdClientURL(const config::APIEndpoint& endpoint) {
  return "https://" + util::JoinHostPort(endpoint.advertise_address, kEtcdClientPort);
}

std::string EtcdPeerURL(const config::APIEndpoint& endpoint) {
  return "https://" + util::JoinHostPort(endpoint.advertise_address, kEtcdPeerPort);
}

std::vector<std::string> EtcdCommand(const StaticPodInput& in,
                                     const std::vector<EtcdMember>& initial_cluster) {
  const config::ClusterConfiguration& c = *in.cluster;
  const std::string& pki = c.certificates_dir;
  const std::string localhost = util::LocalhostFor(in.endpoint.advertise_address);
  std::vector<Arg> base = {
      {"name", in.node_name},
      {"experimental-initial-corrupt-check", "true"},
      {"listen-client-urls", "https://" + util::JoinHostPort(localhost, kEtcdClientPort) + "," +
                                 EtcdClientURL(in.endpoint)},
      {"advertise-client-urls", EtcdClientURL(in.endpoint)},
      {"listen-peer-urls", EtcdPeerURL(in.endpoint)},
      {"initial-advertise-peer-urls", EtcdPeerURL(in.endpoint)},
      {"data-dir", c.etcd.local->data_dir},
      {"cert-file", JoinPath(pki, "etcd/server.crt")},
      {"key-file", JoinPath(pki, "etcd/server.key")},
      {"trusted-ca-file", JoinPath(pki, "etcd/ca.crt")},
      {"client-cert-auth", "true"},
      {"peer-cert-file", JoinPath(pki, "etcd/peer.crt")},
      {"peer-key-file", JoinPath(pki, "etcd/peer.key")},
      {"peer-trusted-ca-file", JoinPath(pki, "etcd/ca.crt")},
      {"peer-client-cert-auth", "true"},
      {"snapshot-count", "10000"},
      {"listen-metrics-urls", "http://" + util::JoinHostPort(localhost, kEtcdMetricsPort)},
      {"experimental-watch-progress-notify-interval", "5s"},
  };
  if (initial_cluster.empty()) {
    base.push_back({"initial-cluster", in.node_name + "=" + EtcdPeerURL(in.endpoint)});
  } else {
    std::string members;
    for (const auto& m : initial_cluster) {
      members += (members.empty() ? "" : ",") + m.name + "=" + m.peer_url;
    }
    base.push_back({"initial-cluster", members});
    base.push_back({"initial-cluster-state", "existing"});
  }
  std::vector<std::string> command = {kEtcd};
  auto flags = util::ArgumentsToCommand(base, c.etcd.local->extra_args);
  command.insert(command.end(), flags.begin(), flags.end());
  return command;
}

Result<json> BuildEtcdPod(const StaticPodInput& in,
                          const std::vector<EtcdMember>& initial_cluster) {
  const config::ClusterConfiguration& c = *in.cluster;
  auto pod = util::LoadPodBase(kEtcd);
  if (!pod.has_value()) return pod.error();
  FillContainer(*pod, config::EtcdImage(c), in, EtcdCommand(in, initial_cluster),
                util::MergeEnvVars({}, c.etcd.local->extra_envs));
  json& container = (*pod)["spec"]["containers"][0];
  FillProbes(container, in);
  util::VolumeMap volumes;
  util::AddVolume(volumes, "etcd-data", c.etcd.local->data_dir, false, "DirectoryOrCreate");
  util::AddVolume(volumes, "etcd-certs", JoinPath(c.certificates_dir, "etcd"), false,
                  "DirectoryOrCreate");
  // kubeadm lists the data mount before the certificates mount here (its literal order, not
  // sorted); spec.volumes are sorted by name.
  json mounts = util::VolumeMountsJson(volumes);
  container["volumeMounts"] = json::array({mounts[1], mounts[0]});
  (*pod)["spec"]["volumes"] = util::VolumesJson(volumes);
  (*pod)["metadata"]["annotations"] = {
      {"kubeadm.kubernetes.io/etcd.advertise-client-urls", EtcdClientURL(in.endpoint)}};
  return pod;
}

Status CreateLocalEtcdManifest(const StaticPodInput& input,
                               const std::vector<EtcdMember>& initial_cluster, util::FileSystem& fs,
                               const std::string& manifest_dir, const ManifestPatcher& patcher) {
  if (!input.cluster->etcd.local) {
    return FailedPrecondition(
        "etcd static pod manifest cannot be generated for cluster using "
        "external etcd");
  }
  auto pod = BuildEtcdPod(input, initial_cluster);
  if (!pod.has_value()) return pod.error();
  return PatchAndWritePod(kEtcd, std::move(*pod), patcher, fs, manifest_dir);
}

}  // namespace kkadm::phases
