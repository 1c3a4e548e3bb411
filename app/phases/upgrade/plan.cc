// Reading a cluster's versions and computing its upgrades (see plan.h).
#include "app/phases/upgrade/plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/config/images.h"
#include "app/phases/upgrade/policy.h"

namespace kkadm::phases::upgrade {
namespace {

using nlohmann::json;
using preflight::ParseSemVer;

constexpr char kSystem[] = "/api/v1/namespaces/kube-system";

// The tag of an image reference ("registry.k8s.io/etcd:3.5.16-0" -> "3.5.16-0"); "" without one.
std::string ImageTag(const std::string& image) {
  size_t colon = image.rfind(':');
  size_t slash = image.rfind('/');
  if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) return "";
  std::string tag = image.substr(colon + 1);
  return tag.substr(0, tag.find('@'));
}

std::string FirstContainerImage(const json& pod_spec) {
  const json containers = pod_spec.value("containers", json::array());
  if (!containers.is_array() || containers.empty() || !containers[0].is_object()) return "";
  return containers[0].value("image", "");
}

// The image tag of each Pod of `component` on each node, sorted by node; kubeadm's label selector.
Result<std::vector<NodeVersion>> ComponentVersions(util::KubeClient& client,
                                                   const std::string& component) {
  auto list = client.Get(fmt::format("{}/pods?labelSelector=component%3D{}%2Ctier%3Dcontrol-plane",
                                     kSystem, component));
  if (!list) return list.error().Wrap("could not list pods");
  std::vector<NodeVersion> out;
  for (const json& pod : list->value("items", json::array())) {
    const json spec = pod.value("spec", json::object());
    out.push_back({spec.value("nodeName", ""), ImageTag(FirstContainerImage(spec))});
  }
  std::sort(out.begin(), out.end(), [](auto& a, auto& b) { return a.node < b.node; });
  return out;
}

// The image tag of a Deployment's or DaemonSet's first container; "" when it does not exist.
Result<std::string> WorkloadVersion(util::KubeClient& client, const std::string& path) {
  auto object = client.Get(path);
  if (!object && object.error().code() == StatusCode::kNotFound) return std::string();
  if (!object) return object.error();
  json spec = object->value("spec", json::object()).value("template", json::object());
  return ImageTag(FirstContainerImage(spec.value("spec", json::object())));
}

bool IsReady(const json& node) {
  json conditions = node.value("status", json::object()).value("conditions", json::array());
  for (const json& c : conditions) {
    if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

Status ReadNodes(util::KubeClient& client, ClusterVersions& out) {
  auto nodes = client.Get("/api/v1/nodes");
  if (!nodes) return nodes.error().Wrap("couldn't list nodes in cluster");
  for (const json& node : nodes->value("items", json::array())) {
    const json meta = node.value("metadata", json::object());
    const std::string name = meta.value("name", "");
    json info = node.value("status", json::object()).value("nodeInfo", json::object());
    out.kubelets.push_back({name, info.value("kubeletVersion", "")});
    if (meta.value("labels", json::object()).contains("node-role.kubernetes.io/control-plane") &&
        !IsReady(node)) {
      out.not_ready_control_planes.push_back(name);
    }
  }
  std::sort(out.kubelets.begin(), out.kubelets.end(),
            [](auto& a, auto& b) { return a.node < b.node; });
  return Status::Ok();
}

// The apiVersion's version of the component config kept in ConfigMap `name`, key `key`.
std::string StoredConfigVersion(util::KubeClient& client, const std::string& name,
                                const std::string& key, const std::string& group) {
  auto cm = client.Get(fmt::format("{}/configmaps/{}", kSystem, name));
  if (!cm) return "";
  const std::string text = cm->value("data", json::object()).value(key, "");
  const std::string marker = "apiVersion: " + group + "/";
  size_t at = text.find(marker);
  if (at == std::string::npos) return "";
  size_t start = at + marker.size();
  return text.substr(start, text.find_first_of(" \r\n", start) - start);
}

std::vector<ConfigVersion> ReadConfigVersions(util::KubeClient& client) {
  std::vector<ConfigVersion> out = {{"kubeproxy.config.k8s.io", "", "v1alpha1"},
                                    {"kubelet.config.k8s.io", "", "v1beta1"}};
  out[0].current = StoredConfigVersion(client, "kube-proxy", "config.conf", out[0].group);
  out[1].current = StoredConfigVersion(client, "kubelet-config", "kubelet", out[1].group);
  for (ConfigVersion& c : out) {
    c.manual_upgrade_required = !c.current.empty() && c.current != c.preferred;
  }
  return out;
}

Result<std::string> ApiServerVersion(util::KubeClient& client) {
  auto body = client.GetRaw("/version");
  if (!body) return body.error().Wrap("Unable to fetch cluster version");
  json info = json::parse(*body, nullptr, /*allow_exceptions=*/false);
  if (!info.is_object() || !info.value("gitVersion", json()).is_string()) {
    return Unavailable("Unable to fetch cluster version: /version has no gitVersion");
  }
  return info["gitVersion"].get<std::string>();
}

}  // namespace

Result<ClusterVersions> ReadClusterVersions(util::KubeClient& client) {
  ClusterVersions out;
  auto version = ApiServerVersion(client);
  if (!version) return version.error();
  out.api_server = *version;
  KKADM_RETURN_IF_ERROR(ReadNodes(client, out));
  for (const std::string& component : kControlPlaneComponents) {
    auto versions = ComponentVersions(client, component);
    if (!versions) return versions.error();
    if (versions->empty()) {
      return FailedPrecondition(fmt::format("cannot find pods for component \"{}\"", component));
    }
    out.control_plane.emplace_back(component, std::move(*versions));
  }
  auto etcd = ComponentVersions(client, "etcd");
  if (!etcd) return etcd.error();
  out.etcd = std::move(*etcd);
  auto coredns =
      WorkloadVersion(client, "/apis/apps/v1/namespaces/kube-system/deployments/coredns");
  if (!coredns) return coredns.error();
  out.coredns = *coredns;
  auto proxy =
      WorkloadVersion(client, "/apis/apps/v1/namespaces/kube-system/daemonsets/kube-proxy");
  if (!proxy) return proxy.error();
  out.kube_proxy = *proxy;
  out.configs = ReadConfigVersions(client);
  return out;
}

Status CheckControlPlaneNodesReady(const ClusterVersions& cluster) {
  if (cluster.not_ready_control_planes.empty()) return Status::Ok();
  std::string names;
  for (const std::string& n : cluster.not_ready_control_planes)
    names += (names.empty() ? "" : " ") + n;
  return FailedPrecondition("[upgrade] FATAL: there are NotReady control-planes in the cluster: [" +
                            names + "]");
}

}  // namespace kkadm::phases::upgrade
