// The TLS bootstrap kubeconfig and the cluster's configuration read with it.
#include "app/phases/discovery/tls_bootstrap.h"

#include "app/config/load_cluster.h"

namespace kkadm::phases::discovery {
namespace {

constexpr const char* kKubeadmConfigPath =
    "/api/v1/namespaces/kube-system/configmaps/kubeadm-config";
constexpr const char* kKubeletConfigPath =
    "/api/v1/namespaces/kube-system/configmaps/kubelet-config";

Result<std::string> ConfigMapKey(util::KubeClient& client, const std::string& path,
                                 const std::string& name, const std::string& key) {
  auto cm = client.Get(path);
  if (!cm) return cm.error().Wrap("unable to fetch the " + name + " ConfigMap");
  const nlohmann::json data = cm->value("data", nlohmann::json::object());
  auto it = data.find(key);
  if (it == data.end() || !it->is_string() || it->get<std::string>().empty()) {
    return InvalidArgument("unable to fetch the " + name + " ConfigMap: the ConfigMap has no " +
                           key + " key");
  }
  return it->get<std::string>();
}

}  // namespace

util::Kubeconfig TlsBootstrapKubeconfig(const VerifiedCluster& cluster, const std::string& token) {
  return util::NewKubeconfigWithToken(cluster.server, kDefaultClusterName, kTlsBootstrapUser,
                                      cluster.ca_pem, token);
}

Result<util::KubeClientConfig> ClientConfigOf(const util::Kubeconfig& kubeconfig) {
  const util::KubeconfigCluster* cluster = kubeconfig.CurrentCluster();
  const util::KubeconfigUser* user = kubeconfig.CurrentUser();
  if (cluster == nullptr || user == nullptr) {
    return InvalidArgument("the kubeconfig has no current context with a cluster and a user");
  }
  if (cluster->certificate_authority_data.empty()) {
    return InvalidArgument("the kubeconfig's cluster \"" + cluster->name + "\" has no CA");
  }
  return util::KubeClientConfigOf(kubeconfig);
}

Result<ClusterState> FetchClusterState(util::KubeClient& client, util::Printer& out) {
  out.Line("preflight", "Reading configuration from the cluster...");
  out.Line("preflight",
           "FYI: You can look at this config file with 'kubectl -n kube-system get cm "
           "kubeadm-config -o yaml'");
  auto cluster_yaml =
      ConfigMapKey(client, kKubeadmConfigPath, "kubeadm-config", "ClusterConfiguration");
  if (!cluster_yaml) return cluster_yaml.error();
  auto cluster =
      config::ClusterConfigurationFromYaml(*cluster_yaml, "the kubeadm-config ConfigMap");
  if (!cluster) return cluster.error();
  auto kubelet_yaml = ConfigMapKey(client, kKubeletConfigPath, "kubelet-config", "kubelet");
  if (!kubelet_yaml) return kubelet_yaml.error();
  auto kubelet =
      config::KubeletConfigurationFromYaml(*kubelet_yaml, "the kubelet-config ConfigMap");
  if (!kubelet) return kubelet.error();
  return ClusterState{std::move(*cluster), std::move(*kubelet)};
}

}  // namespace kkadm::phases::discovery
