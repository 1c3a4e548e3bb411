// cluster-info: fetching and parsing.
#include "app/phases/discovery/cluster_info.h"

#include <nlohmann/json.hpp>

#include "app/util/kube_client_real.h"

namespace kkadm::phases::discovery {

std::string EndpointUrl(const std::string& endpoint) { return "https://" + endpoint; }

Result<ClusterInfo> FetchClusterInfo(AnonymousClient& client, const std::string& server_url) {
  std::string base = server_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  auto response = client.Get(base + kClusterInfoPath);
  if (!response) return response.error();
  if (response->status != 200) return util::StatusFromApiResponse(response->status, response->body);
  auto parsed = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  // The answer is anyone's until the signature is checked: no field may be assumed a string
  // (json::value would throw on a "kind" that is not one).
  const auto kind = parsed.find("kind");
  if (kind == parsed.end() || *kind != "ConfigMap") {
    return InvalidArgument("the cluster-info answer is not a ConfigMap");
  }
  ClusterInfo info;
  const nlohmann::json data = parsed.value("data", nlohmann::json::object());
  if (!data.is_object())
    return InvalidArgument("the cluster-info ConfigMap's data is not an object");
  for (auto it = data.begin(); it != data.end(); ++it) {
    if (!it->is_string()) continue;
    const std::string& key = it.key();
    if (key == "kubeconfig") {
      info.kubeconfig = it->get<std::string>();
    } else if (key.rfind(kJwsKeyPrefix, 0) == 0) {
      info.signatures[key.substr(std::string(kJwsKeyPrefix).size())] = it->get<std::string>();
    }
  }
  return info;
}

Result<util::KubeconfigCluster> ClusterOfClusterInfo(const std::string& kubeconfig) {
  auto config = util::DecodeKubeconfig(kubeconfig);
  if (!config) {
    return InvalidArgument("couldn't parse the kubeconfig file in the cluster-info ConfigMap: " +
                           config.error().message());
  }
  const util::KubeconfigCluster* cluster = config->CurrentCluster();
  if (cluster == nullptr && config->clusters.size() == 1) cluster = &config->clusters.front();
  if (cluster == nullptr) {
    return InvalidArgument("malformed kubeconfig in the cluster-info ConfigMap: no cluster found");
  }
  if (cluster->server.empty()) {
    return InvalidArgument(
        "malformed kubeconfig in the cluster-info ConfigMap: the cluster has no server");
  }
  return *cluster;
}

}  // namespace kkadm::phases::discovery
