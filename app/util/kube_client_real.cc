// RealKubeClient over HttpClient, and a self-contained kubeconfig reader for its configuration.
#include "app/util/kube_client_real.h"

#include <algorithm>

#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

namespace kkadm::util {
namespace {

// Standard base64 (RFC 4648) as kubeconfig *-data fields use; whitespace is skipped.
Result<std::string> Base64Decode(std::string_view in) {
  static constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  bool padding = false;
  for (char c : in) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      padding = true;
      continue;
    }
    auto pos = kAlphabet.find(c);
    if (pos == std::string_view::npos || padding) return InvalidArgument("invalid base64 data");
    buffer = (buffer << 6) | static_cast<unsigned>(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

// The entry named `name` in a kubeconfig list ("clusters", "users", "contexts"), its inner map.
Result<YAML::Node> NamedEntry(const YAML::Node& root, const char* list, const std::string& field,
                              const std::string& name) {
  const YAML::Node entries = root[list];
  if (entries && entries.IsSequence()) {
    for (const auto& entry : entries) {
      if (entry.IsMap() && entry["name"] && entry["name"].as<std::string>() == name) {
        if (!entry[field] || !entry[field].IsMap())
          return InvalidArgument(std::string(list) + " entry \"" + name + "\" has no " + field);
        return YAML::Node(entry[field]);
      }
    }
  }
  return InvalidArgument("kubeconfig has no " + field + " named \"" + name + "\"");
}

std::string Scalar(const YAML::Node& map, const char* key) {
  const YAML::Node value = map[key];
  return value && value.IsScalar() ? value.as<std::string>() : std::string();
}

Status DecodeInto(const YAML::Node& map, const char* key, std::string& out) {
  std::string data = Scalar(map, key);
  if (data.empty()) return Status::Ok();
  auto decoded = Base64Decode(data);
  if (!decoded) return decoded.error().Wrap(key);
  out = std::move(*decoded);
  return Status::Ok();
}

Result<KubeClientConfig> ParseKubeconfig(const YAML::Node& root, std::string context) {
  if (!root.IsMap()) return InvalidArgument("kubeconfig is not a mapping");
  if (context.empty()) context = Scalar(root, "current-context");
  if (context.empty()) return InvalidArgument("kubeconfig has no current-context");
  auto ctx = NamedEntry(root, "contexts", "context", context);
  if (!ctx) return ctx.error();
  auto cluster = NamedEntry(root, "clusters", "cluster", Scalar(*ctx, "cluster"));
  if (!cluster) return cluster.error();
  KubeClientConfig config;
  config.server = Scalar(*cluster, "server");
  if (config.server.empty()) return InvalidArgument("cluster of context \"" + context + "\" has no server");
  config.insecure_skip_tls_verify = Scalar(*cluster, "insecure-skip-tls-verify") == "true";
  config.ca_file = Scalar(*cluster, "certificate-authority");
  KKADM_RETURN_IF_ERROR(DecodeInto(*cluster, "certificate-authority-data", config.ca_pem));
  std::string user_name = Scalar(*ctx, "user");
  if (user_name.empty()) return config;  // anonymous, like a cluster-info kubeconfig
  auto user = NamedEntry(root, "users", "user", user_name);
  if (!user) return user.error();
  KKADM_RETURN_IF_ERROR(DecodeInto(*user, "client-certificate-data", config.client_cert_pem));
  KKADM_RETURN_IF_ERROR(DecodeInto(*user, "client-key-data", config.client_key_pem));
  config.client_cert_file = Scalar(*user, "client-certificate");
  config.client_key_file = Scalar(*user, "client-key");
  config.token = Scalar(*user, "token");
  return config;
}

bool Retriable(long status) { return status == 429 || status >= 500; }

StatusCode CodeFor(long http_status, const std::string& reason) {
  switch (http_status) {
    case 400:
    case 422: return StatusCode::kInvalidArgument;
    case 401: return StatusCode::kUnauthenticated;
    case 403: return StatusCode::kPermissionDenied;
    case 404: return StatusCode::kNotFound;
    case 409: return reason == "AlreadyExists" ? StatusCode::kAlreadyExists : StatusCode::kAborted;
    default: break;
  }
  if (Retriable(http_status)) return StatusCode::kUnavailable;
  return http_status >= 400 && http_status < 500 ? StatusCode::kFailedPrecondition
                                                 : StatusCode::kInternal;
}

const char* ContentType(PatchType type) {
  switch (type) {
    case PatchType::kJson: return "application/json-patch+json";
    case PatchType::kMerge: return "application/merge-patch+json";
    case PatchType::kStrategic: return "application/strategic-merge-patch+json";
  }
  return "application/merge-patch+json";
}

}  // namespace

Result<KubeClientConfig> KubeClientConfigFromKubeconfig(std::string_view kubeconfig_yaml,
                                                        std::string_view context_or_empty) {
  try {
    return ParseKubeconfig(YAML::Load(std::string(kubeconfig_yaml)), std::string(context_or_empty));
  } catch (const YAML::Exception& e) {
    return InvalidArgument(std::string("parsing kubeconfig: ") + e.what());
  }
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

RealKubeClient::RealKubeClient(KubeClientConfig config)
    : config_(std::move(config)), clock_(config_.clock != nullptr ? config_.clock : &RealClock()) {
  HttpClientOptions options;
  options.ca_pem = config_.ca_pem;
  options.client_cert_pem = config_.client_cert_pem;
  options.client_key_pem = config_.client_key_pem;
  options.bearer_token = config_.token;
  options.insecure_skip_tls_verify = config_.insecure_skip_tls_verify;
  options.request_timeout = config_.request_timeout;
  options.connect_timeout = std::min(config_.request_timeout, std::chrono::milliseconds(5000));
  http_ = NewHttpClient(std::move(options));
}

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
    spdlog::debug("kube api {} {} attempt {}: {}; retrying", request.method, path, attempt,
                  failure.message());
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
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

Result<nlohmann::json> RealKubeClient::Update(const std::string& path, const nlohmann::json& object) {
  return SendJson("PUT", path, "application/json", &object);
}

Result<nlohmann::json> RealKubeClient::Patch(const std::string& path, PatchType type,
                                             const nlohmann::json& patch) {
  return SendJson("PATCH", path, ContentType(type), &patch);
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
