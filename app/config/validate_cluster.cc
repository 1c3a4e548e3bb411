// Validation of ClusterConfiguration: networking, version, endpoints, SANs, volumes, etcd.
#include <optional>
#include <set>

#include "app/config/field_reader.h"
#include "app/config/image_repository.h"
#include "app/config/validate.h"
#include "app/util/ascii.h"
#include "app/util/net_rules.h"
#include "app/util/strings.h"
#include "app/util/version_numbers.h"
#include "build_info.h"

namespace kkadm::config {
namespace {

// kkadm deploys control planes from v1.29 up to one minor above its own version.
constexpr int kMinimumMinor = 29;

void ValidateCidrList(const std::string& value, const std::string& path, Checker& check,
                      std::vector<util::Cidr>& out) {
  auto parts = util::SplitComma(value);
  if (parts.size() > 2) {
    return check.Fail(
        path, value,
        "expected one (IPv4 or IPv6) CIDR or two CIDRs from each family for dual-stack networking");
  }
  for (const auto& part : parts) {
    auto cidr = util::ParseCidr(part);
    if (!cidr) return check.Fail(path, value, "must be a valid CIDR");
    out.push_back(*cidr);
  }
  if (out.size() == 2 && out[0].IsIpv6() == out[1].IsIpv6()) {
    check.Fail(
        path, value,
        "expected one (IPv4 or IPv6) CIDR or two CIDRs from each family for dual-stack networking");
  }
}

void ValidateServiceSubnet(const std::string& value, Checker& check) {
  std::vector<util::Cidr> cidrs;
  ValidateCidrList(value, "networking.serviceSubnet", check, cidrs);
  for (const util::Cidr& c : cidrs) {
    int host_bits = c.Bits() - c.prefix;
    // At least 10 addresses; at most 20 host bits (IPv6: a /108 or smaller).
    if (host_bits < 4)
      check.Fail("networking.serviceSubnet", value,
                 "the service subnet is too small: it must hold at least 10 addresses");
    if (host_bits > 20) {
      check.Fail("networking.serviceSubnet", value,
                 c.IsIpv6()
                     ? "the IPv6 service subnet is too large: the mask must be /108 or longer"
                     : "the service subnet is too large: it may have at most 20 host bits (/12)");
    }
  }
}

// The last value of a controller-manager flag, or "".
std::string ControllerManagerArg(const ClusterConfiguration& cfg, const std::string& name) {
  std::string value;
  for (const Arg& a : cfg.controller_manager.extra_args) {
    if (a.name == name) value = a.value;
  }
  return value;
}

void ValidatePodSubnet(const ClusterConfiguration& cfg, Checker& check) {
  const std::string& value = cfg.networking.pod_subnet;
  if (value.empty()) return;
  std::vector<util::Cidr> cidrs;
  ValidateCidrList(value, "networking.podSubnet", check, cidrs);
  bool allocates = ControllerManagerArg(cfg, "allocate-node-cidrs") != "false";
  for (const util::Cidr& c : cidrs) {
    int host_bits = c.Bits() - c.prefix;
    if (host_bits < 4)
      check.Fail("networking.podSubnet", value,
                 "the pod subnet is too small: it must hold at least 14 addresses");
    if (!allocates) continue;
    // The controller manager gives each node a /24 (IPv4) or /64 (IPv6) unless told otherwise.
    std::string flag = c.IsIpv6() ? "node-cidr-mask-size-ipv6" : "node-cidr-mask-size-ipv4";
    std::string given = ControllerManagerArg(cfg, flag);
    int node_mask = c.IsIpv6() ? 64 : 24;
    if (!given.empty()) {
      if (given.find_first_not_of("0123456789") != std::string::npos || given.size() > 3) {
        check.Fail("controllerManager.extraArgs", given,
                   "the value of " + flag + " must be an integer");
        continue;
      }
      node_mask = std::stoi(given);
    }
    if (c.prefix > node_mask) {
      check.Fail("networking.podSubnet", value,
                 "the pod subnet mask must not be longer than the node CIDR mask /" +
                     std::to_string(node_mask));
    } else if (node_mask - c.prefix > 16) {
      check.Fail("networking.podSubnet", value,
                 "the node CIDR mask may be at most 16 bits longer than the pod subnet mask");
    }
  }
}

// v(\d+)\.(\d+)\.(\d+)([-+][0-9A-Za-z.+-]*)?
constexpr std::optional<util::VersionNumbers> KubernetesVersionNumbers(std::string_view version) {
  util::Scanner in(version);
  auto numbers = in.Consume('v') ? util::ConsumeVersionNumbers(in) : std::nullopt;
  auto in_suffix = [](char c) { return util::IsAsciiAlnum(c) || c == '.' || c == '+' || c == '-'; };
  if (!numbers || (!in.AtEnd() && !(in.ConsumeAnyOf("-+") && util::AllOf(in.rest(), in_suffix)))) {
    return std::nullopt;
  }
  return numbers;
}

// The minor of kkadm's built-in version (CMake's KKADM_KUBERNETES_VERSION).
constexpr int BuiltInMinor() {
  auto numbers = KubernetesVersionNumbers(build_info::kKubernetesVersion);
  if (!numbers) return -1;
  int minor = 0;
  for (char c : numbers->minor) minor = minor * 10 + (c - '0');
  return minor;
}
static_assert(BuiltInMinor() >= 0, "KKADM_KUBERNETES_VERSION must be a version such as v1.32.0");

void ValidateVersion(const std::string& version, Checker& check) {
  auto numbers = KubernetesVersionNumbers(version);
  if (!numbers) {
    return check.Fail("kubernetesVersion", version, "must be a semantic version such as v1.32.0");
  }
  // nullopt: too large for an int, out of range like any other large number.
  std::optional<int> major = util::DigitsToInt(numbers->major);
  std::optional<int> minor = util::DigitsToInt(numbers->minor);
  constexpr int own_minor = BuiltInMinor();
  if (major != 1 || (minor && *minor < kMinimumMinor)) {
    check.Fail("kubernetesVersion", version,
               "this version of kkadm only supports deploying clusters with the control plane "
               "version >= v1.29.0");
  } else if (!minor || *minor > own_minor + 1) {
    check.Fail("kubernetesVersion", version,
               "this version of kkadm only supports deploying clusters with the control plane "
               "version <= v1." +
                   std::to_string(own_minor + 1));
  }
}

void ValidateSANs(const std::vector<std::string>& sans, const std::string& path, Checker& check) {
  for (size_t i = 0; i < sans.size(); ++i) {
    const std::string& s = sans[i];
    if (!util::ParseIp(s) && !util::IsDns1123Subdomain(s) && !util::IsWildcardDns1123Subdomain(s)) {
      check.Fail(Indexed(path, i), s,
                 "must be a valid IP address, DNS-1123 subdomain or wildcard DNS name");
    }
  }
}

void ValidateImageRepository(const std::string& value, const std::string& path, Checker& check) {
  if (auto problem = ImageRepositoryProblem(value)) check.Fail(path, value, *problem);
}

void ValidateComponent(const ControlPlaneComponent& c, const std::string& path, Checker& check) {
  static const std::set<std::string> kPathTypes = {
      "",       "DirectoryOrCreate", "Directory",  "FileOrCreate", "File",
      "Socket", "CharDevice",        "BlockDevice"};
  for (size_t i = 0; i < c.extra_args.size(); ++i) {
    if (c.extra_args[i].name.empty())
      check.Fail(Indexed(path + ".extraArgs", i) + ".name", "", "argument name must not be empty");
  }
  for (size_t i = 0; i < c.extra_volumes.size(); ++i) {
    const HostPathMount& v = c.extra_volumes[i];
    std::string p = Indexed(path + ".extraVolumes", i);
    if (v.name.empty()) check.Fail(p + ".name", v.name, "volume name must not be empty");
    ValidateAbsolutePath(v.host_path, p + ".hostPath", check);
    ValidateAbsolutePath(v.mount_path, p + ".mountPath", check);
    if (!kPathTypes.count(v.path_type)) {
      check.Fail(p + ".pathType", v.path_type,
                 "must be one of DirectoryOrCreate, Directory, FileOrCreate, File, Socket, "
                 "CharDevice, BlockDevice");
    }
  }
  for (size_t i = 0; i < c.extra_envs.size(); ++i) {
    if (c.extra_envs[i].name.empty())
      check.Fail(Indexed(path + ".extraEnvs", i) + ".name", "", "name must not be empty");
  }
}

// kubeadm's rules: certificate and key come together, and need the CA; with any TLS file set
// every endpoint must be https.
void ValidateExternalEtcd(const ExternalEtcd& e, Checker& check) {
  if (e.endpoints.empty())
    return check.Fail("etcd.external.endpoints", "", "at least one endpoint is required");
  bool tls = !e.ca_file.empty() || !e.cert_file.empty() || !e.key_file.empty();
  for (size_t i = 0; i < e.endpoints.size(); ++i) {
    const std::string& url = e.endpoints[i];
    bool https = url.rfind("https://", 0) == 0;
    if (!https && url.rfind("http://", 0) != 0) {
      check.Fail(Indexed("etcd.external.endpoints", i), url, "must be an http:// or https:// URL");
    } else if (tls && !https) {
      check.Fail(Indexed("etcd.external.endpoints", i), url,
                 "must use https when caFile, certFile or keyFile is set");
    }
  }
  if (e.cert_file.empty() != e.key_file.empty()) {
    check.Fail(e.cert_file.empty() ? "etcd.external.certFile" : "etcd.external.keyFile", "",
               "either both or none of certFile and keyFile must be set");
  }
  if (!e.cert_file.empty() && !e.key_file.empty() && e.ca_file.empty()) {
    check.Fail("etcd.external.caFile", "", "required when certFile and keyFile are set");
  }
  const std::pair<const char*, const std::string*> files[] = {
      {"etcd.external.caFile", &e.ca_file},
      {"etcd.external.certFile", &e.cert_file},
      {"etcd.external.keyFile", &e.key_file}};
  for (const auto& [path, value] : files) {
    if (!value->empty()) ValidateAbsolutePath(*value, path, check);
  }
}

void ValidateEtcd(const Etcd& etcd, Checker& check) {
  if (etcd.local && etcd.external) {
    return check.Fail("etcd", "local+external",
                      "etcd.local and etcd.external are mutually exclusive");
  }
  if (etcd.local) {
    ValidateNodeDirectory(etcd.local->data_dir, "etcd.local.dataDir", check);
    for (size_t i = 0; i < etcd.local->extra_args.size(); ++i) {
      if (etcd.local->extra_args[i].name.empty()) {
        check.Fail(Indexed("etcd.local.extraArgs", i) + ".name", "",
                   "argument name must not be empty");
      }
    }
    ValidateSANs(etcd.local->server_cert_sans, "etcd.local.serverCertSANs", check);
    ValidateSANs(etcd.local->peer_cert_sans, "etcd.local.peerCertSANs", check);
    if (!etcd.local->image_repository.empty()) {
      ValidateImageRepository(etcd.local->image_repository, "etcd.local.imageRepository", check);
    }
    return;
  }
  if (etcd.external) ValidateExternalEtcd(*etcd.external, check);
}

// kubeadm 1.32's gates (features.go InitFeatureGates); any other name is refused, as kubeadm does.
void ValidateFeatureGates(const std::map<std::string, bool>& gates, Checker& check) {
  static constexpr const char* kKnown =
      "ControlPlaneKubeletLocalMode, EtcdLearnerMode, NodeLocalCRISocket, PublicKeysECDSA, "
      "RootlessControlPlane, WaitForAllControlPlaneComponents";
  static const std::set<std::string> kGates = {
      "ControlPlaneKubeletLocalMode", "EtcdLearnerMode",
      "NodeLocalCRISocket",           "PublicKeysECDSA",
      "RootlessControlPlane",         "WaitForAllControlPlaneComponents"};
  for (const auto& [name, enabled] : gates) {
    if (!kGates.count(name)) {
      check.Fail("featureGates", name,
                 std::string("not a valid feature gate; known gates: ") + kKnown);
    } else if (name == "PublicKeysECDSA") {
      check.Warn(
          "featureGates.PublicKeysECDSA",
          "the feature gate is deprecated and will be removed; use encryptionAlgorithm (v1beta4)");
    }
  }
}

}  // namespace

void Checker::Fail(const std::string& path, const std::string& value, const std::string& reason) {
  if (status_.ok()) status_ = InvalidField(origin_, path, value, reason);
}

void Checker::Warn(const std::string& path, const std::string& message) {
  warnings_.push_back(origin_ + ": " + path + ": " + message);
}

Status ValidateClusterConfiguration(const ClusterConfiguration& cfg, const std::string& origin,
                                    std::vector<std::string>& warnings) {
  Checker check(origin, warnings);
  ValidateServiceSubnet(cfg.networking.service_subnet, check);
  ValidatePodSubnet(cfg, check);
  if (!util::IsDns1123Subdomain(cfg.networking.dns_domain)) {
    check.Fail("networking.dnsDomain", cfg.networking.dns_domain, "must be a DNS-1123 subdomain");
  }
  ValidateVersion(cfg.kubernetes_version, check);
  if (!cfg.control_plane_endpoint.empty()) {
    if (auto problem = HostPortProblem(cfg.control_plane_endpoint, false)) {
      check.Fail("controlPlaneEndpoint", cfg.control_plane_endpoint, *problem);
    }
  }
  ValidateSANs(cfg.api_server.cert_sans, "apiServer.certSANs", check);
  ValidateComponent(cfg.api_server.component, "apiServer", check);
  ValidateComponent(cfg.controller_manager, "controllerManager", check);
  ValidateComponent(cfg.scheduler, "scheduler", check);
  ValidateEtcd(cfg.etcd, check);
  ValidateImageRepository(cfg.image_repository, "imageRepository", check);
  if (!cfg.dns.image_repository.empty()) {
    ValidateImageRepository(cfg.dns.image_repository, "dns.imageRepository", check);
  }
  ValidateNodeDirectory(cfg.certificates_dir, "certificatesDir", check);
  ValidateFeatureGates(cfg.feature_gates, check);
  if (cfg.certificate_validity_period.count() <= 0) {
    check.Fail("certificateValidityPeriod",
               std::to_string(cfg.certificate_validity_period.count()) + "ms", "must be positive");
  }
  if (cfg.certificate_validity_period > cfg.ca_certificate_validity_period) {
    check.Warn("certificateValidityPeriod", "is longer than caCertificateValidityPeriod");
  }
  return check.status();
}

}  // namespace kkadm::config
