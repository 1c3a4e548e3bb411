// KubeletConfiguration: kubeadm's defaults and the user's overrides.
#include "app/phases/kubelet/kubelet_config.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/util/net_rules.h"
#include "app/util/strings.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

constexpr unsigned kClusterDnsIndex = 10;  // kubeadm's GetDNSIP

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
  const std::string first = util::SplitComma(service_subnet).front();
  auto ip = util::IndexedIpInCidr(first, kClusterDnsIndex);
  if (!ip) {
    return InvalidArgument(fmt::format("service subnet \"{}\" has no cluster DNS address: {}",
                                       first, ip.error().message()));
  }
  return ip;
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
