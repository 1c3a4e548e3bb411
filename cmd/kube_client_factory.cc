// kubeconfig file -> RealKubeClient.
#include "cmd/kube_client_factory.h"

#include <fmt/format.h>

#include "app/util/kube_client_real.h"

namespace kkadm::cmd {
namespace {

// Fills `pem` from `file` when the kubeconfig referenced a file instead of embedding data.
Status ReadReferenced(const util::FileSystem& fs, const std::string& file, std::string& pem) {
  if (file.empty() || !pem.empty()) return Status();
  Result<std::string> content = fs.ReadFile(file);
  if (!content) return content.error();
  pem = std::move(*content);
  return Status();
}

}  // namespace

Result<std::unique_ptr<util::KubeClient>> NewKubeClientFromKubeconfig(
    const util::FileSystem& fs, const std::string& path, util::Clock& clock,
    std::chrono::milliseconds api_timeout, std::chrono::milliseconds request_timeout) {
  Result<std::string> text = fs.ReadFile(path);
  if (!text)
    return InvalidArgument(
        fmt::format("failed to load admin kubeconfig: {}", text.error().message()));
  Result<util::KubeClientConfig> config = util::KubeClientConfigFromKubeconfig(*text, "");
  if (!config) return config.error().Wrap(fmt::format("kubeconfig \"{}\"", path));
  for (auto [file, pem] : {std::pair{&config->ca_file, &config->ca_pem},
                           std::pair{&config->client_cert_file, &config->client_cert_pem},
                           std::pair{&config->client_key_file, &config->client_key_pem}}) {
    KKADM_RETURN_IF_ERROR(
        ReadReferenced(fs, *file, *pem).Wrap(fmt::format("kubeconfig \"{}\"", path)));
  }
  config->clock = &clock;
  config->retry_timeout = api_timeout;
  config->request_timeout = request_timeout;
  return std::unique_ptr<util::KubeClient>(
      std::make_unique<util::RealKubeClient>(std::move(*config)));
}

}  // namespace kkadm::cmd
