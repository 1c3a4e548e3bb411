// Cluster and node facts for join tokens (see join_facts.h).
#include "app/phases/bootstraptoken/join_facts.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/config/defaults.h"
#include "app/config/load_cluster.h"
#include "app/phases/markcontrolplane/mark_control_plane.h"
#include "app/phases/uploadconfig/upload_config.h"
#include "app/util/kube_apply.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

bool Contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

}  // namespace

Result<config::ClusterConfiguration> FetchClusterConfiguration(util::KubeClient& client) {
  auto config_map = client.Get(std::string("/api/v1/namespaces/") + util::kKubeSystem +
                               "/configmaps/kubeadm-config");
  if (!config_map) return config_map.error().Wrap("failed to get the kubeadm-config ConfigMap");
  const json data = config_map->value("data", json::object());
  if (!data.contains("ClusterConfiguration") || !data["ClusterConfiguration"].is_string()) {
    return NotFound("the kubeadm-config ConfigMap has no ClusterConfiguration");
  }
  return config::ClusterConfigurationFromYaml(data["ClusterConfiguration"].get<std::string>(),
                                              "ConfigMap kube-system/kubeadm-config");
}

std::string ClusterCriSocket(util::KubeClient& client) {
  auto nodes = client.Get("/api/v1/nodes");
  if (!nodes) {
    spdlog::debug("listing the nodes for their CRI socket failed: {}", nodes.error().message());
    return config::kDefaultCriSocket;
  }
  std::string socket;
  for (const json& node : nodes->value("items", json::array())) {
    const json meta = node.value("metadata", json::object());
    if (!meta.value("labels", json::object()).contains(kControlPlaneLabel)) continue;
    const std::string annotation =
        meta.value("annotations", json::object()).value(kCriSocketAnnotation, "");
    if (annotation.empty() || (!socket.empty() && socket != annotation))
      return config::kDefaultCriSocket;
    socket = annotation;
  }
  return socket.empty() ? config::kDefaultCriSocket : socket;
}

Status CheckControlPlaneJoin(const util::FileSystem& fs,
                             const config::ClusterConfiguration& cluster) {
  if (cluster.control_plane_endpoint.empty()) {
    return FailedPrecondition(
        "--control-plane: the cluster has no controlPlaneEndpoint, and a control-plane node can "
        "only join a cluster with a stable controlPlaneEndpoint address");
  }
  for (const char* file : {"ca.crt", "ca.key"}) {
    const std::string path = cluster.certificates_dir + "/" + file;
    if (!fs.Exists(path)) {
      return FailedPrecondition("--control-plane: " + path +
                                " is missing: run this on a control-plane node that holds the "
                                "cluster's CA keys");
    }
  }
  return Status::Ok();
}

Status CheckJoinUsagesAndGroups(const config::BootstrapToken& token) {
  for (const char* usage : {"signing", "authentication"}) {
    if (!Contains(token.usages, usage)) {
      return InvalidArgument(std::string("--usages: a token for joining nodes needs the usage \"") +
                             usage + "\" (use --usages signing,authentication)");
    }
  }
  if (!Contains(token.groups, util::kNodeBootstrapTokenGroup)) {
    return InvalidArgument(std::string("--groups: a token for joining nodes needs the group \"") +
                           util::kNodeBootstrapTokenGroup + "\"");
  }
  return Status::Ok();
}

}  // namespace kkadm::phases
