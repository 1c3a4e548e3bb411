// CoreDNS and kube-proxy objects (see addon_objects.h).
#include "app/phases/addons/addon_objects.h"

#include "app/config/images.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/phases/kubelet/kubelet_config.h"
#include "app/util/embedded_manifests.h"
#include "app/util/kube_apply.h"
#include "app/util/net_rules.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

// The documents of manifests/addons/<name>.
Result<std::vector<json>> Base(const std::string& name) {
  auto text = util::EmbeddedManifest("addons/" + name);
  if (!text) return Internal("no embedded manifest addons/" + name);
  return util::yaml::ReadDocuments(*text, {.source = "addons/" + name});
}

Result<json> One(const std::string& name) {
  auto docs = Base(name);
  if (!docs) return docs.error();
  return docs->front();
}

// `user` over `base`: objects merge key by key, anything else from `user` replaces.
void Overlay(json& base, const json& user) {
  for (auto it = user.begin(); it != user.end(); ++it) {
    if (it->is_object() && base.contains(it.key()) && base[it.key()].is_object()) {
      Overlay(base[it.key()], *it);
    } else {
      base[it.key()] = *it;
    }
  }
}

std::string WithoutFinalNewline(std::string text) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

std::string Corefile(const std::string& dns_domain) {
  return ".:53 {\n"
         "    errors\n"
         "    health {\n"
         "       lameduck 5s\n"
         "    }\n"
         "    ready\n"
         "    kubernetes " +
         dns_domain +
         " in-addr.arpa ip6.arpa {\n"
         "       pods insecure\n"
         "       fallthrough in-addr.arpa ip6.arpa\n"
         "       ttl 30\n"
         "    }\n"
         "    prometheus :9153\n"
         "    forward . /etc/resolv.conf {\n"
         "       max_concurrent 1000\n"
         "    }\n"
         "    cache 30\n"
         "    loop\n"
         "    reload\n"
         "    loadbalance\n"
         "}\n";
}

Result<std::vector<json>> CoreDnsObjects(const config::ClusterConfiguration& cluster) {
  auto config_map = One("coredns/configmap.yaml");
  auto rbac = Base("coredns/rbac.yaml");
  auto deployment = One("coredns/deployment.yaml");
  auto service = One("coredns/service.yaml");
  auto dns_ip = ClusterDnsIp(cluster.networking.service_subnet);
  for (const Status& s : {config_map.status(), rbac.status(), deployment.status(), service.status(),
                          dns_ip.status()}) {
    KKADM_RETURN_IF_ERROR(s);
  }
  (*config_map)["data"]["Corefile"] = Corefile(cluster.networking.dns_domain);
  (*deployment)["spec"]["template"]["spec"]["containers"][0]["image"] = config::DNSImage(cluster);
  (*service)["spec"]["clusterIP"] = *dns_ip;
  std::vector<json> out = {*config_map};
  out.insert(out.end(), rbac->begin(), rbac->end());
  out.push_back(*deployment);
  out.push_back(*service);
  return out;
}

namespace {

json* Deployment(std::vector<json>& objects) {
  for (json& object : objects) {
    if (object.value("kind", "") == "Deployment") return &object;
  }
  return nullptr;
}

Status DeploymentPatchFailed(Status error) {
  return std::move(error).Wrap("could not apply patches to the CoreDNS Deployment");
}

}  // namespace

Status PatchCoreDnsDeployment(const util::patches::Patcher& patches, std::vector<json>& objects) {
  json* deployment = Deployment(objects);
  if (deployment == nullptr) return Internal("the CoreDNS objects hold no Deployment");
  auto patched = patches.Apply(kCoreDnsDeploymentTarget, std::move(*deployment));
  if (!patched) return DeploymentPatchFailed(patched.error());
  *deployment = std::move(*patched);
  return Status::Ok();
}

Status CheckCoreDnsPatches(const config::ClusterConfiguration& cluster,
                           const util::patches::Patcher& patches) {
  Status applies = patches.Check(kCoreDnsDeploymentTarget, [&cluster]() -> Result<json> {
    auto objects = CoreDnsObjects(cluster);
    if (!objects) return objects.error();
    json* deployment = Deployment(*objects);
    if (deployment == nullptr) return Internal("the CoreDNS objects hold no Deployment");
    return std::move(*deployment);
  });
  return applies.ok() ? applies : DeploymentPatchFailed(std::move(applies));
}

Result<json> KubeProxyConfiguration(const config::ClusterConfiguration& cluster,
                                    const config::APIEndpoint& local_endpoint, const json& user) {
  auto doc = One("kube-proxy/config.yaml");
  if (!doc) return doc.error();
  if (util::IsIpv6Address(local_endpoint.advertise_address)) (*doc)["bindAddress"] = "::";
  (*doc)["clusterCIDR"] = cluster.networking.pod_subnet;
  if (user.is_null()) return doc;
  if (!user.is_object()) return InvalidArgument("the KubeProxyConfiguration is not an object");
  json overlay = user;
  // An empty string counts as unset, as in kubeadm's defaulting.
  for (const char* key : {"bindAddress", "clusterCIDR"}) {
    if (overlay.contains(key) && overlay[key] == "") overlay.erase(key);
  }
  Overlay(*doc, overlay);
  return doc;
}

Result<std::vector<json>> KubeProxyObjects(const config::ClusterConfiguration& cluster,
                                           const config::APIEndpoint& local_endpoint,
                                           const json& user_config) {
  auto rbac = Base("kube-proxy/rbac.yaml");
  auto config_map = One("kube-proxy/configmap.yaml");
  auto kubeconfig = One("kube-proxy/kubeconfig.yaml");
  auto daemon_set = One("kube-proxy/daemonset.yaml");
  auto proxy_config = KubeProxyConfiguration(cluster, local_endpoint, user_config);
  auto server =
      phases::kubeconfig::ControlPlaneEndpoint(cluster.control_plane_endpoint, local_endpoint);
  for (const Status& s : {rbac.status(), config_map.status(), kubeconfig.status(),
                          daemon_set.status(), proxy_config.status(), server.status()}) {
    KKADM_RETURN_IF_ERROR(s);
  }
  (*kubeconfig)["clusters"][0]["cluster"]["server"] = *server;
  (*config_map)["data"]["kubeconfig.conf"] = WithoutFinalNewline(util::yaml::Emit(*kubeconfig));
  (*config_map)["data"]["config.conf"] = WithoutFinalNewline(util::yaml::Emit(*proxy_config));
  (*daemon_set)["spec"]["template"]["spec"]["containers"][0]["image"] =
      config::KubernetesImage("kube-proxy", cluster);
  std::vector<json> out = *rbac;
  out.push_back(*config_map);
  out.push_back(*daemon_set);
  return out;
}

void PrintObjects(util::Printer& out, const std::vector<json>& objects) {
  for (const auto& object : objects) out.Raw("---\n" + util::yaml::Emit(object));
}

Status ApplyAddonObjects(util::KubeClient& client, const std::vector<json>& objects) {
  for (const auto& object : objects) {
    const bool keep = object.value("kind", "") == "ConfigMap" &&
                      object.value("/metadata/name"_json_pointer, std::string()) == "coredns";
    KKADM_RETURN_IF_ERROR(keep ? util::CreateOrRetain(client, object)
                               : util::CreateOrUpdate(client, object));
  }
  return Status::Ok();
}

}  // namespace kkadm::phases
