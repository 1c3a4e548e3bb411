// KubeletConfiguration: kubeadm's defaults and the user's overrides.
#include "app/phases/kubelet/kubelet_config.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <array>
#include <cstdlib>

namespace kkadm::phases {
namespace {

using nlohmann::json;

constexpr int kClusterDnsIndex = 10;

// Adds `n` to the big-endian address in `bytes`.
template <size_t N>
void AddToAddress(std::array<unsigned char, N>& bytes, int n) {
  int carry = n;
  for (size_t i = N; i-- > 0 && carry > 0;) {
    int sum = bytes[i] + carry;
    bytes[i] = static_cast<unsigned char>(sum & 0xFF);
    carry = sum >> 8;
  }
}

template <size_t N>
Result<std::string> IndexedIp(int family, const std::string& ip, int prefix, int index) {
  constexpr int kBits = static_cast<int>(N) * 8;
  std::array<unsigned char, N> bytes{};
  if (inet_pton(family, ip.c_str(), bytes.data()) != 1 || prefix < 0 || prefix > kBits) {
    return InvalidArgument("not an IP address or prefix");
  }
  // The subnet must hold the index; host bits beyond 30 hold any int.
  if (kBits - prefix < 31 && (1LL << (kBits - prefix)) <= index) {
    return InvalidArgument(fmt::format("too small to hold IP number {}", index));
  }
  AddToAddress(bytes, index);
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (inet_ntop(family, bytes.data(), text.data(), text.size()) == nullptr) {
    return Internal("formatting an IP address failed");
  }
  return std::string(text.data());
}

// Lays `over` onto `base`: objects merge recursively; null and "" leave the base value.
void Overlay(json& base, const json& over) {
  for (const auto& [key, value] : over.items()) {
    if (value.is_null() || (value.is_string() && value.get_ref<const std::string&>().empty())) {
      continue;
    }
    if (value.is_object() && base.contains(key) && base[key].is_object()) {
      Overlay(base[key], value);
    } else {
      base[key] = value;
    }
  }
}

Status CheckUserDocument(const json& user) {
  if (user.is_null()) return Status();
  if (!user.is_object()) return InvalidArgument("KubeletConfiguration: the document is not a map");
  auto check = [&](const char* field, std::string_view want) -> Status {
    if (!user.contains(field)) return Status();
    const json& got = user[field];
    if (got.is_string() && got.get_ref<const std::string&>() == want) return Status();
    return InvalidArgument(
        fmt::format("KubeletConfiguration: {} must be \"{}\", got {}", field, want, got.dump()));
  };
  KKADM_RETURN_IF_ERROR(check("apiVersion", kKubeletConfigApiVersion));
  return check("kind", kKubeletConfigKind);
}

json Defaults(const KubeletConfigInput& in, const std::string& dns_ip) {
  json d = {
      {"apiVersion", kKubeletConfigApiVersion},
      {"kind", kKubeletConfigKind},
      {"authentication",
       {{"anonymous", {{"enabled", false}}},
        // The kubelet's own defaults for the caches, written out so the file says what runs.
        {"webhook", {{"cacheTTL", "2m0s"}, {"enabled", true}}},
        {"x509", {{"clientCAFile", in.cluster.certificates_dir + "/ca.crt"}}}}},
      {"authorization",
       {{"mode", "Webhook"},
        {"webhook", {{"cacheAuthorizedTTL", "5m0s"}, {"cacheUnauthorizedTTL", "30s"}}}}},
      {"cgroupDriver", "systemd"},
      {"clusterDNS", json::array({dns_ip})},
      {"clusterDomain", in.cluster.networking.dns_domain},
      {"healthzBindAddress", "127.0.0.1"},
      {"healthzPort", 10248},
      {"readOnlyPort", 0},
      {"rotateCertificates", true},
      {"staticPodPath", in.static_pod_path},
  };
  if (in.systemd_resolv_conf) d["resolvConf"] = kSystemdResolvConf;
  return d;
}

}  // namespace

Result<std::string> ClusterDnsIp(const std::string& service_subnet) {
  std::string first = service_subnet.substr(0, service_subnet.find(','));
  auto slash = first.find('/');
  auto fail = [&](const Status& why) {
    return InvalidArgument(
        fmt::format("service subnet \"{}\" has no cluster DNS address: {}", first, why.message()));
  };
  if (slash == std::string::npos) return fail(InvalidArgument("not a CIDR"));
  std::string ip = first.substr(0, slash);
  char* end = nullptr;
  long prefix = std::strtol(first.c_str() + slash + 1, &end, 10);
  if (end == first.c_str() + slash + 1 || *end != '\0') return fail(InvalidArgument("bad prefix"));
  bool v6 = ip.find(':') != std::string::npos;
  auto out = v6 ? IndexedIp<16>(AF_INET6, ip, static_cast<int>(prefix), kClusterDnsIndex)
                : IndexedIp<4>(AF_INET, ip, static_cast<int>(prefix), kClusterDnsIndex);
  if (!out) return fail(out.error());
  return out;
}

Result<nlohmann::json> BuildKubeletConfiguration(const KubeletConfigInput& in) {
  KKADM_RETURN_IF_ERROR(CheckUserDocument(in.user));
  auto dns_ip = ClusterDnsIp(in.cluster.networking.service_subnet);
  if (!dns_ip) return dns_ip.error();
  json doc = Defaults(in, *dns_ip);
  if (in.user.is_object()) Overlay(doc, in.user);
  if (doc.value("readOnlyPort", json(0)) != json(0)) {
    spdlog::warn("KubeletConfiguration: readOnlyPort is {}; kubeadm's default 0 turns it off",
                 doc["readOnlyPort"].dump());
  }
  // kubeadm cannot tell an explicit false from unset here, so the kubelet always rotates.
  doc["rotateCertificates"] = true;
  return doc;
}

}  // namespace kkadm::phases
