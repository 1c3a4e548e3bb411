// Discovery, the TLS bootstrap identity and the cluster's configuration for `kkadm join`.
#include "app/phases/discovery/join_cluster.h"

#include <spdlog/spdlog.h>

#include "app/phases/discovery/file_discovery.h"

namespace kkadm::phases {
namespace {

constexpr const char* kIdentityError = "couldn't validate the identity of the API Server";

struct Identity {
  util::Kubeconfig kubeconfig;
  std::string ca_pem;
};

Result<Identity> FromAdminConf(const util::FileSystem& fs, const std::string& path) {
  auto text = fs.ReadFile(path);
  if (!text) return text.error().Wrap("Error loading " + path);
  auto kubeconfig = util::DecodeKubeconfig(*text);
  if (!kubeconfig) return kubeconfig.error().Wrap("Error loading " + path);
  const util::KubeconfigCluster* cluster = kubeconfig->CurrentCluster();
  if (cluster == nullptr) return InvalidArgument("Error loading " + path + ": no current cluster");
  spdlog::info("[preflight] found {}. Use it for skipping discovery", path);
  std::string ca = cluster->certificate_authority_data;
  return Identity{std::move(*kubeconfig), std::move(ca)};
}

Result<Identity> FromToken(const config::JoinConfiguration& cfg,
                           const std::vector<std::string>& endpoints, JoinClusterEnv& env) {
  const config::BootstrapTokenDiscovery& bt = *cfg.discovery.bootstrap_token;
  discovery::TokenDiscoveryInput in;
  in.endpoints = endpoints.empty() ? std::vector<std::string>{bt.api_server_endpoint} : endpoints;
  in.token = bt.token;
  in.ca_cert_hashes = bt.ca_cert_hashes;
  in.unsafe_skip_ca_verification = bt.unsafe_skip_ca_verification;
  in.timeout = cfg.timeouts.discovery;
  auto verified = discovery::DiscoverWithToken(in, env.discovery);
  if (!verified) return verified.error().Wrap(kIdentityError);
  return Identity{discovery::TlsBootstrapKubeconfig(*verified, cfg.discovery.tls_bootstrap_token),
                  verified->ca_pem};
}

Result<Identity> FromFile(const config::JoinConfiguration& cfg, JoinClusterEnv& env) {
  discovery::FileDiscoveryInput in;
  in.path_or_url = cfg.discovery.file->kube_config_path;
  in.timeout = cfg.timeouts.discovery;
  in.read_file = env.read_local_file;
  auto found = discovery::DiscoverWithFile(in, env.discovery);
  if (!found) return found.error().Wrap(kIdentityError);
  if (!cfg.discovery.tls_bootstrap_token.empty()) {
    return Identity{
        discovery::TlsBootstrapKubeconfig(found->cluster, cfg.discovery.tls_bootstrap_token),
        found->cluster.ca_pem};
  }
  const util::KubeconfigUser* user = found->kubeconfig.CurrentUser();
  if (user == nullptr || (user->token.empty() && user->client_certificate_data.empty())) {
    return InvalidArgument(
        "could not find authentication credentials for the TLS bootstrap process. Please use Token "
        "discovery, a discovery file with embedded authentication credentials or a discovery file "
        "without authentication credentials but with the TLSBootstrapToken flag");
  }
  return Identity{std::move(found->kubeconfig), found->cluster.ca_pem};
}

// kubeadm names the bootstrap kubeconfig's cluster after the cluster once it knows its name.
void RenameCluster(util::Kubeconfig& kubeconfig, const std::string& name) {
  util::KubeconfigContext* context = nullptr;
  for (auto& c : kubeconfig.contexts) {
    if (c.name == kubeconfig.current_context) context = &c;
  }
  if (context == nullptr || name.empty()) return;
  for (auto& cluster : kubeconfig.clusters) {
    if (cluster.name == context->cluster) cluster.name = name;
  }
  context->cluster = name;
}

}  // namespace

config::InitConfiguration JoinInitConfiguration(const config::JoinConfiguration& cfg,
                                                discovery::ClusterState state) {
  config::InitConfiguration init;
  init.cluster = std::move(state.cluster);
  init.component_configs.kubelet = std::move(state.kubelet);
  init.node_registration = cfg.node_registration;
  if (cfg.control_plane) init.local_api_endpoint = cfg.control_plane->local_api_endpoint;
  init.timeouts = cfg.timeouts;
  init.patches_directory = cfg.patches_directory;
  init.dry_run = cfg.dry_run;
  init.skip_phases = cfg.skip_phases;
  return init;
}

Result<JoinCluster> DiscoverJoinCluster(const config::JoinConfiguration& cfg,
                                        const std::vector<std::string>& endpoints,
                                        const std::string& admin_kubeconfig_path,
                                        JoinClusterEnv& env) {
  Result<Identity> identity = InvalidArgument("couldn't find a valid discovery configuration");
  if (cfg.control_plane && env.fs.Exists(admin_kubeconfig_path)) {
    identity = FromAdminConf(env.fs, admin_kubeconfig_path);
  } else if (cfg.discovery.file) {
    identity = FromFile(cfg, env);
  } else if (cfg.discovery.bootstrap_token) {
    identity = FromToken(cfg, endpoints, env);
  }
  if (!identity) return identity.error();
  auto client_config = discovery::ClientConfigOf(identity->kubeconfig);
  if (!client_config) return client_config.error().Wrap("unable to access the cluster");
  client_config->clock = &env.discovery.clock;
  client_config->retry_timeout = cfg.timeouts.kubernetes_api_call;
  std::unique_ptr<util::KubeClient> client = env.make_client(*client_config);
  auto state = discovery::FetchClusterState(*client, env.discovery.out);
  if (!state) return state.error();
  RenameCluster(identity->kubeconfig, state->cluster.cluster_name);
  JoinCluster out;
  out.tls_bootstrap = std::move(identity->kubeconfig);
  out.ca_pem = std::move(identity->ca_pem);
  out.init_cfg = JoinInitConfiguration(cfg, std::move(*state));
  return out;
}

}  // namespace kkadm::phases
