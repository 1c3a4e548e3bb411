// RealKubeClient: util::KubeClient over HTTPS (HttpClient/libcurl), with kubeadm's API retry rule
// (retry transport errors, 429 and 5xx every retry_interval until retry_timeout; never 4xx), each
// retry a Retry event (what: kubernetes-api) when the config carries an event sink.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "app/util/clock.h"
#include "app/util/events.h"
#include "app/util/http_client.h"
#include "app/util/kube_client.h"

namespace kkadm::util {

struct Kubeconfig;

struct KubeClientConfig {
  std::string server;  // "https://10.0.0.1:6443"
  std::string ca_pem;
  std::string client_cert_pem;
  std::string client_key_pem;  // never logged
  std::string token;           // never logged
  // Files a kubeconfig names instead of embedding data (certificate-authority, client-certificate,
  // client-key): KubeClientConfigFromKubeconfig leaves them here for the caller to read through
  // util::FileSystem into the *_pem fields above. RealKubeClient ignores them.
  std::string ca_file;
  std::string client_cert_file;
  std::string client_key_file;
  bool insecure_skip_tls_verify = false;
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds retry_timeout{60000};  // kubeadm: API call 1 m
  std::chrono::milliseconds retry_interval{500};   // kubeadm: retry 500 ms
  Clock* clock = nullptr;                          // nullptr: RealClock()
  Events events;  // where each retry is told (docs/events.md); none by default
};

// Parses a kubeconfig (YAML or JSON) and picks `context` (empty: current-context): its cluster's
// server, certificate-authority-data and insecure-skip-tls-verify, its user's
// client-certificate-data, client-key-data and token (file references land in the *_file fields).
// kInvalidArgument for malformed YAML, a missing context/cluster/user or undecodable base64.
Result<KubeClientConfig> KubeClientConfigFromKubeconfig(std::string_view kubeconfig_yaml,
                                                        std::string_view context_or_empty);
// The same for a kubeconfig already parsed, at its current context.
Result<KubeClientConfig> KubeClientConfigOf(const Kubeconfig& kubeconfig);

// The TLS material, credentials and timeouts of `config` as an HTTP client's options.
HttpClientOptions HttpOptionsFor(const KubeClientConfig& config);

// The Status for a non-2xx API answer: the code from the HTTP status and the Status object's
// reason (see KubeClient), the message from the Status object's message when the body has one.
Status StatusFromApiResponse(long http_status, const std::string& body);

class RealKubeClient final : public KubeClient {
 public:
  // `http` defaults to NewHttpClient with HttpOptionsFor(config).
  explicit RealKubeClient(KubeClientConfig config, std::unique_ptr<HttpClient> http = nullptr);

  Result<nlohmann::json> Get(const std::string& path) override;
  Result<nlohmann::json> Create(const std::string& collection,
                                const nlohmann::json& object) override;
  Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) override;
  Result<nlohmann::json> Patch(const std::string& path, PatchType type,
                               const nlohmann::json& patch) override;
  Status Delete(const std::string& path) override;
  Result<std::string> GetRaw(const std::string& path) override;

 private:
  // Sends with retries; the response once it is final (2xx or a non-retried error status).
  Result<HttpResponse> Send(HttpRequest request);
  Result<nlohmann::json> SendJson(const std::string& method, const std::string& path,
                                  const std::string& content_type, const nlohmann::json* body);

  KubeClientConfig config_;
  Clock* clock_;
  std::unique_ptr<HttpClient> http_;
};

}  // namespace kkadm::util
