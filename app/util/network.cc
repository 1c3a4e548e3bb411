// The real network seam, and the client helpers every command shares.
#include "app/util/network.h"

#include <fmt/format.h>

namespace kkadm::util {
namespace {

// Fills `pem` from `file` when the kubeconfig referenced a file instead of embedding data.
Status ReadReferenced(const FileSystem& fs, const std::string& file, std::string& pem) {
  if (file.empty() || !pem.empty()) return Status();
  Result<std::string> content = fs.ReadFile(file);
  if (!content) return content.error();
  pem = std::move(*content);
  return Status();
}

}  // namespace

std::unique_ptr<HttpClient> RealNetwork::Http(const HttpClientOptions& options) {
  return NewHttpClient(options);
}

std::unique_ptr<KubeClient> RealNetwork::Kube(KubeClientConfig config) {
  if (!config.events.enabled()) config.events = events_;
  return std::make_unique<RealKubeClient>(std::move(config));
}

std::unique_ptr<EtcdClient> RealNetwork::Etcd(EtcdClientConfig config) {
  if (!config.events.enabled()) config.events = events_;
  return std::make_unique<EtcdClient>(std::move(config));
}

Result<std::string> GetOk(Network& net, const std::string& url) {
  Result<HttpResponse> response = net.Http({})->Get(url);
  if (!response) return response.error();
  if (response->status != 200) {
    return Unavailable(fmt::format("GET {}: HTTP {}", url, response->status));
  }
  return std::move(response->body);
}

Result<std::unique_ptr<KubeClient>> KubeClientFromKubeconfigFile(
    Network& net, const FileSystem& fs, const std::string& path,
    const KubeClientTimeouts& timeouts) {
  Result<std::string> text = fs.ReadFile(path);
  if (!text) {
    return InvalidArgument(
        fmt::format("failed to load admin kubeconfig: {}", text.error().message()));
  }
  Result<KubeClientConfig> config = KubeClientConfigFromKubeconfig(*text, "");
  if (!config) return config.error().Wrap(fmt::format("kubeconfig \"{}\"", path));
  for (auto [file, pem] : {std::pair{&config->ca_file, &config->ca_pem},
                           std::pair{&config->client_cert_file, &config->client_cert_pem},
                           std::pair{&config->client_key_file, &config->client_key_pem}}) {
    KKADM_RETURN_IF_ERROR(
        ReadReferenced(fs, *file, *pem).Wrap(fmt::format("kubeconfig \"{}\"", path)));
  }
  config->clock = &timeouts.clock;
  config->retry_timeout = timeouts.api_call;
  config->request_timeout = timeouts.request;
  return net.Kube(std::move(*config));
}

}  // namespace kkadm::util
