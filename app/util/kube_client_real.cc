// RealKubeClient over HttpClient, and its configuration from a kubeconfig (util::DecodeKubeconfig).
#include "app/util/kube_client_real.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "app/util/kubeconfig.h"

namespace kkadm::util {
namespace {

bool Retriable(long status) { return status == 429 || status >= 500; }

// The log line at -v 5 and, for -o json / --events, a Retry event (docs/events.md). A transport
// error names the request already ("GET https://...: Connection refused"); an answer does not.
void ReportApiRetry(const Events& events, const HttpRequest& request, const std::string& path,
                    int attempt, const Status& failure, std::chrono::milliseconds delay) {
  spdlog::debug("kube api {} {} attempt {}: {}; retrying", request.method, path, attempt,
                failure.message());
  const bool named = failure.message().rfind(request.method + " " + request.url, 0) == 0;
  events.Emit("Retry", {{"what", "kubernetes-api"},
                        {"attempt", attempt},
                        {"reason", named ? failure.message()
                                         : request.method + " " + path + ": " + failure.message()},
                        {"delaySeconds", std::chrono::duration<double>(delay).count()}});
}

StatusCode CodeFor(long http_status, const std::string& reason) {
  switch (http_status) {
    case 400:
    case 422:
      return StatusCode::kInvalidArgument;
    case 401:
      return StatusCode::kUnauthenticated;
    case 403:
      return StatusCode::kPermissionDenied;
    case 404:
      return StatusCode::kNotFound;
    case 409:
      return reason == "AlreadyExists" ? StatusCode::kAlreadyExists : StatusCode::kAborted;
    default:
      break;
  }
  if (Retriable(http_status)) return StatusCode::kUnavailable;
  return http_status >= 400 && http_status < 500 ? StatusCode::kFailedPrecondition
                                                 : StatusCode::kInternal;
}

}  // namespace

Result<KubeClientConfig> KubeClientConfigFromKubeconfig(std::string_view kubeconfig_yaml,
                                                        std::string_view context_or_empty) {
  auto kubeconfig = DecodeKubeconfig(kubeconfig_yaml);
  if (!kubeconfig) return kubeconfig.error();
  if (!context_or_empty.empty()) kubeconfig->current_context = context_or_empty;
  return KubeClientConfigOf(*kubeconfig);
}

Result<KubeClientConfig> KubeClientConfigOf(const Kubeconfig& kubeconfig) {
  const std::string& context = kubeconfig.current_context;
  if (context.empty()) return InvalidArgument("kubeconfig has no current-context");
  const KubeconfigContext* ctx = kubeconfig.CurrentContext();
  if (!ctx) return InvalidArgument("kubeconfig has no context named \"" + context + "\"");
  const KubeconfigCluster* cluster = kubeconfig.CurrentCluster();
  if (!cluster) return InvalidArgument("kubeconfig has no cluster named \"" + ctx->cluster + "\"");
  if (cluster->server.empty()) {
    return InvalidArgument("cluster of context \"" + context + "\" has no server");
  }
  KubeClientConfig config;
  config.server = cluster->server;
  config.insecure_skip_tls_verify = cluster->insecure_skip_tls_verify;
  config.ca_file = cluster->certificate_authority;
  config.ca_pem = cluster->certificate_authority_data;
  if (ctx->user.empty()) return config;  // anonymous, like a cluster-info kubeconfig
  const KubeconfigUser* user = kubeconfig.CurrentUser();
  if (!user) return InvalidArgument("kubeconfig has no user named \"" + ctx->user + "\"");
  config.client_cert_pem = user->client_certificate_data;
  config.client_key_pem = user->client_key_data;
  config.client_cert_file = user->client_certificate;
  config.client_key_file = user->client_key;
  config.token = user->token;
  return config;
}

Status StatusFromApiResponse(long http_status, const std::string& body) {
  std::string reason;
  std::string message;
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  auto field = [&parsed](const char* key) {
    auto it = parsed.find(key);
    return it != parsed.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (parsed.is_object() && field("kind") == "Status") {
    reason = field("reason");
    message = field("message");
  }
  if (message.empty()) {
    message = "the server answered HTTP " + std::to_string(http_status);
    if (!body.empty()) message += ": " + body.substr(0, 200);
  }
  return Status(CodeFor(http_status, reason), message);
}

HttpClientOptions HttpOptionsFor(const KubeClientConfig& config) {
  HttpClientOptions options;
  options.ca_pem = config.ca_pem;
  options.client_cert_pem = config.client_cert_pem;
  options.client_key_pem = config.client_key_pem;
  options.bearer_token = config.token;
  options.insecure_skip_tls_verify = config.insecure_skip_tls_verify;
  options.request_timeout = config.request_timeout;
  options.connect_timeout = std::min(config.request_timeout, std::chrono::milliseconds(5000));
  return options;
}

RealKubeClient::RealKubeClient(KubeClientConfig config, std::unique_ptr<HttpClient> http)
    : config_(std::move(config)),
      clock_(config_.clock != nullptr ? config_.clock : &RealClock()),
      http_(http != nullptr ? std::move(http) : NewHttpClient(HttpOptionsFor(config_))) {}

Result<HttpResponse> RealKubeClient::Send(HttpRequest request) {
  std::string server = config_.server;
  while (!server.empty() && server.back() == '/') server.pop_back();
  std::string path = request.url;
  request.url = server + path;
  request.headers["Accept"] = "application/json";
  const auto deadline = clock_->Now() + config_.retry_timeout;
  auto interval = config_.retry_interval;
  const auto max_interval = config_.retry_interval * 4;
  for (int attempt = 1;; ++attempt) {
    auto response = http_->Do(request);
    if (!response && response.error().code() != StatusCode::kUnavailable) return response.error();
    Status failure = !response ? response.error()
                     : Retriable(response->status)
                         ? StatusFromApiResponse(response->status, response->body)
                         : Status::Ok();
    if (failure.ok()) return response;
    auto now = clock_->Now();
    if (now >= deadline) {
      return Unavailable(request.method + " " + path + " failed after " + std::to_string(attempt) +
                         " attempts: " + failure.message());
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    ReportApiRetry(config_.events, request, path, attempt, failure, std::min(interval, left));
    clock_->Sleep(std::min(interval, left));
    interval = std::min(interval * 2, max_interval);
  }
}

Result<nlohmann::json> RealKubeClient::SendJson(const std::string& method, const std::string& path,
                                                const std::string& content_type,
                                                const nlohmann::json* body) {
  HttpRequest request;
  request.method = method;
  request.url = path;
  if (body != nullptr) {
    request.body = body->dump();
    request.content_type = content_type;
  }
  auto response = Send(std::move(request));
  if (!response) return response.error();
  if (response->status < 200 || response->status >= 300)
    return StatusFromApiResponse(response->status, response->body);
  auto parsed = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded())
    return Internal(method + " " + path + ": the server's answer is not JSON");
  return parsed;
}

Result<nlohmann::json> RealKubeClient::Get(const std::string& path) {
  return SendJson("GET", path, "", nullptr);
}

Result<nlohmann::json> RealKubeClient::Create(const std::string& collection,
                                              const nlohmann::json& object) {
  return SendJson("POST", collection, "application/json", &object);
}

Result<nlohmann::json> RealKubeClient::Update(const std::string& path,
                                              const nlohmann::json& object) {
  return SendJson("PUT", path, "application/json", &object);
}

Result<nlohmann::json> RealKubeClient::Patch(const std::string& path, PatchType type,
                                             const nlohmann::json& patch) {
  return SendJson("PATCH", path, std::string(PatchMediaType(type)), &patch);
}

Status RealKubeClient::Delete(const std::string& path) {
  return SendJson("DELETE", path, "", nullptr).status();
}

Result<std::string> RealKubeClient::GetRaw(const std::string& path) {
  HttpRequest request;
  request.url = path;
  auto response = Send(std::move(request));
  if (!response) return response.error();
  if (response->status != 200) return StatusFromApiResponse(response->status, response->body);
  return std::move(response->body);
}

}  // namespace kkadm::util
