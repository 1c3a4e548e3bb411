// File discovery: a user-provided kubeconfig, checked against cluster-info over verified TLS.
#include "app/phases/discovery/file_discovery.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>

#include "app/phases/discovery/cluster_info.h"
#include "app/util/duration.h"

namespace kkadm::phases::discovery {
namespace {

Result<std::string> ReadDiscoveryFile(const FileDiscoveryInput& in, DiscoveryEnv& env) {
  if (in.path_or_url.rfind("https://", 0) != 0) return in.read_file(in.path_or_url);
  AnonymousClient client(env.http, ServerTrust::System(), in.request_timeout);
  auto response = client.Get(in.path_or_url);
  if (!response) return response.error();
  if (response->status != 200) {
    return Unavailable(fmt::format("GET {}: HTTP {}", in.path_or_url, response->status));
  }
  return response->body;
}

// Replaces a file reference by the file's content, as kubeadm's
// EnsureAuthenticationInfoAreEmbedded.
Status Embed(const FileDiscoveryInput& in, std::string& path, std::string& data) {
  if (path.empty()) return Status::Ok();
  if (data.empty()) {
    auto content = in.read_file(path);
    if (!content) return content.error();
    data = std::move(*content);
  }
  path.clear();
  return Status::Ok();
}

Result<util::Kubeconfig> LoadKubeconfig(const FileDiscoveryInput& in, DiscoveryEnv& env) {
  auto text = ReadDiscoveryFile(in, env);
  if (!text) return text.error().Wrap("reading the discovery file \"" + in.path_or_url + "\"");
  auto config = util::DecodeKubeconfig(*text);
  if (!config)
    return InvalidArgument("the discovery file \"" + in.path_or_url +
                           "\": " + config.error().message());
  if (config->clusters.empty()) {
    return InvalidArgument("the provided kubeconfig file must have at least one Cluster defined");
  }
  for (auto& cluster : config->clusters) {
    KKADM_RETURN_IF_ERROR(
        Embed(in, cluster.certificate_authority, cluster.certificate_authority_data));
  }
  for (auto& user : config->users) {
    KKADM_RETURN_IF_ERROR(Embed(in, user.client_certificate, user.client_certificate_data));
    KKADM_RETURN_IF_ERROR(Embed(in, user.client_key, user.client_key_data));
  }
  return config;
}

util::KubeconfigCluster* ChosenCluster(util::Kubeconfig& config) {
  const util::KubeconfigContext* context = config.CurrentContext();
  for (auto& cluster : config.clusters) {
    if (context == nullptr || cluster.name == context->cluster) return &cluster;
  }
  return &config.clusters.front();
}

// Polls cluster-info until it answers: a ConfigMap, a Forbidden (nothing published), or the
// timeout.
Result<std::optional<ClusterInfo>> PollClusterInfo(const FileDiscoveryInput& in, DiscoveryEnv& env,
                                                   AnonymousClient& client,
                                                   const std::string& server) {
  const auto deadline = env.clock.Now() + in.timeout;
  auto interval = in.first_interval;
  while (true) {
    auto info = FetchClusterInfo(client, server);
    if (info) return std::optional<ClusterInfo>(std::move(*info));
    const StatusCode code = info.error().code();
    if (code == StatusCode::kPermissionDenied) {
      spdlog::warn(
          "[discovery] Could not access the cluster-info ConfigMap for refreshing the "
          "cluster-info information, but the TLS cert is valid so proceeding...");
      return std::optional<ClusterInfo>();
    }
    const auto now = env.clock.Now();
    if (code == StatusCode::kFailedPrecondition || now >= deadline) {
      return info.error().Wrap(
          fmt::format("Abort reading the cluster-info ConfigMap after timeout of {}",
                      util::FormatDuration(in.timeout)));
    }
    env.clock.Sleep(
        std::min(interval, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)));
    interval = std::min(interval * 2, in.max_interval);
  }
}

}  // namespace

Result<FileDiscovery> DiscoverWithFile(const FileDiscoveryInput& in, DiscoveryEnv& env) {
  auto config = LoadKubeconfig(in, env);
  if (!config) return config.error();
  util::KubeconfigCluster* cluster = ChosenCluster(*config);
  ServerTrust trust = cluster->certificate_authority_data.empty()
                          ? ServerTrust::System()
                          : ServerTrust::CaBundle(cluster->certificate_authority_data);
  AnonymousClient client(env.http, trust, in.request_timeout);
  auto info = PollClusterInfo(in, env, client, cluster->server);
  if (!info) return info.error();
  if (info->has_value() && !(*info)->kubeconfig.empty()) {
    auto published = ClusterOfClusterInfo((*info)->kubeconfig);
    if (!published) return published.error();
    if (published->server != cluster->server) {
      spdlog::warn(
          "[discovery] the API Server endpoint \"{}\" in use is different from the endpoint "
          "\"{}\" which defined in the cluster-info ConfigMap",
          cluster->server, published->server);
    }
    if (cluster->certificate_authority_data.empty()) {
      cluster->certificate_authority_data = published->certificate_authority_data;
    }
  }
  FileDiscovery out;
  out.cluster = VerifiedCluster{cluster->server, cluster->certificate_authority_data, "", true};
  out.kubeconfig = std::move(*config);
  return out;
}

}  // namespace kkadm::phases::discovery
