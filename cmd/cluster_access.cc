// The production cluster access: clients from the node's kubeconfig files, and join's discovery.
#include "cmd/cluster_access.h"

#include <fmt/format.h>

#include "app/phases/discovery/tls_bootstrap.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/util/input_file.h"
#include "app/util/kube_client_dry_run.h"
#include "app/util/kube_client_real.h"
#include "app/util/network.h"
#include "app/util/printable.h"
#include "app/util/yaml/limits.h"

namespace kkadm::cmd {
namespace {

// The API client of the kubeconfig file `path` on the node, made on first use into `slot` and
// kept; in a dry run a DryRunKubeClient, since the files a dry run wrote are not on the node.
Result<util::KubeClient*> NodeKubeconfigClient(std::unique_ptr<util::KubeClient>& slot,
                                               const phases::NodeContext& node,
                                               const std::string& path,
                                               std::chrono::milliseconds api_timeout) {
  if (slot) return slot.get();
  if (node.dry_run) {
    slot = std::make_unique<util::DryRunKubeClient>(*node.out);
    return slot.get();
  }
  auto client = util::KubeClientFromKubeconfigFile(
      node.host->net, node.host->fs, path, {.clock = node.host->clock, .api_call = api_timeout});
  if (!client) return client.error();
  slot = std::move(*client);
  return slot.get();
}

// A file of this machine (--discovery-file and what it names), not a node path.
Result<std::string> ReadLocalFile(const std::string& path) {
  Result<std::string> content = util::ReadInputFile(path, util::yaml::kMaxTextBytes);
  if (!content) {
    return InvalidArgument(
        fmt::format("unable to read {}: {}", util::Quote(path), content.error().message()));
  }
  return content;
}

}  // namespace

Result<util::KubeClient*> KubeconfigClusterAccess::AdminClient() {
  return NodeKubeconfigClient(admin_, data_, data_.admin_kubeconfig_path,
                              data_.cfg.timeouts.kubernetes_api_call);
}

Result<util::KubeClient*> KubeconfigClusterAccess::SuperAdminClient() {
  return NodeKubeconfigClient(super_admin_, data_, data_.kubeconfig_dir + "/super-admin.conf",
                              data_.cfg.timeouts.kubernetes_api_call);
}

Result<phases::JoinCluster*> DiscoveringClusterAccess::Discovered() {
  if (!cluster_) {
    util::Network& net = data_.host->net;
    phases::JoinClusterEnv env{{[&net](const util::HttpClientOptions& o) { return net.Http(o); },
                                data_.host->clock, *data_.out},
                               [&net](const util::KubeClientConfig& c) { return net.Kube(c); },
                               ReadLocalFile,
                               data_.host->fs};
    cluster_ = phases::DiscoverJoinCluster(data_.cfg, data_.discovery_endpoints,
                                           data_.admin_kubeconfig_path(), env);
  }
  if (!*cluster_) return cluster_->error();
  return &cluster_->value();
}

Result<util::KubeClient*> DiscoveringClusterAccess::BootstrapClient() {
  if (!bootstrap_) {
    auto cluster = Discovered();
    if (!cluster) return cluster.error();
    auto config = phases::discovery::ClientConfigOf((*cluster)->tls_bootstrap);
    if (!config) return config.error().Wrap("unable to access the cluster");
    config->clock = &data_.host->clock;
    config->retry_timeout = data_.cfg.timeouts.kubernetes_api_call;
    bootstrap_ = data_.host->net.Kube(std::move(*config));
  }
  return bootstrap_.get();
}

Result<util::KubeClient*> DiscoveringClusterAccess::AdminClient() {
  return NodeKubeconfigClient(admin_, data_, data_.admin_kubeconfig_path(),
                              data_.cfg.timeouts.kubernetes_api_call);
}

Result<std::unique_ptr<util::KubeClient>> DiscoveringClusterAccess::LocalApiClient() {
  auto cluster = Discovered();
  if (!cluster) return cluster.error();
  auto text = data_.host->fs.ReadFile(data_.admin_kubeconfig_path());
  if (!text) return text.error();
  auto config = util::KubeClientConfigFromKubeconfig(*text, "");
  if (!config) return config.error().Wrap(data_.admin_kubeconfig_path());
  auto local = phases::kubeconfig::LocalEndpoint((*cluster)->init_cfg);
  if (!local) return local.error();
  config->server = *local;
  config->clock = &data_.host->clock;
  // One attempt per probe: the caller polls.
  config->retry_timeout = std::chrono::milliseconds(0);
  return data_.host->net.Kube(std::move(*config));
}

}  // namespace kkadm::cmd
