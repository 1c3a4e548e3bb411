// EtcdClient over etcd's v3 JSON gateway. IDs and counters are uint64 sent as decimal strings.
#include "app/util/etcd_client.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>

namespace kkadm::util {
namespace {

// etcd's retryable answers: a cluster not ready to reconfigure, a learner not caught up yet.
constexpr std::string_view kUnhealthyCluster = "unhealthy cluster";
constexpr std::string_view kLearnerNotReady =
    "can only promote a learner member which is in sync with leader";

Result<uint64_t> ParseUint64(const nlohmann::json& value) {
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (!value.is_string())
    return InvalidArgument("etcd: expected a decimal string, got " + value.dump());
  const std::string& s = value.get_ref<const std::string&>();
  uint64_t out = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty())
    return InvalidArgument("etcd: \"" + s + "\" is not a uint64");
  return out;
}

// A missing field is 0 (the gateway omits zero values).
Result<uint64_t> Uint64Field(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return uint64_t{0};
  return ParseUint64(*it);
}

std::vector<std::string> Strings(const nlohmann::json& obj, const char* key) {
  std::vector<std::string> out;
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_array()) return out;
  for (const auto& v : *it)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::string StringField(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool BoolField(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_boolean() && it->get<bool>();
}

Result<std::vector<EtcdMember>> Members(const nlohmann::json& answer) {
  std::vector<EtcdMember> members;
  auto it = answer.find("members");
  if (it == answer.end() || !it->is_array()) return members;
  for (const auto& m : *it) {
    auto member = EtcdMemberFromJson(m);
    if (!member) return member.error();
    members.push_back(std::move(*member));
  }
  return members;
}

// The Status for a gateway error body {"error": "...", "code": N, "message": "..."}.
Status GatewayError(long http_status, const std::string& body) {
  auto parsed = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  std::string message = parsed.is_object() ? StringField(parsed, "message") : "";
  if (message.empty() && parsed.is_object()) message = StringField(parsed, "error");
  if (message.empty()) message = "HTTP " + std::to_string(http_status) + ": " + body.substr(0, 200);
  int code = parsed.is_object() && parsed.contains("code") && parsed["code"].is_number_integer()
                 ? parsed["code"].get<int>()
                 : -1;
  if (code == 14 || message.find(kUnhealthyCluster) != std::string::npos ||
      message.find(kLearnerNotReady) != std::string::npos || http_status >= 500)
    return Unavailable(message);
  switch (code) {
    case 3:
      return InvalidArgument(message);
    case 5:
      return NotFound(message);
    case 6:
      return AlreadyExists(message);
    case 7:
      return PermissionDenied(message);
    case 9:
      return FailedPrecondition(message);
    case 16:
      return Unauthenticated(message);
    default:
      return Internal("etcd: " + message);
  }
}

std::string IdString(uint64_t id) { return std::to_string(id); }

}  // namespace

Result<EtcdClientConfig> EtcdClientConfigFor(const FileSystem& fs, const std::string& cert_dir,
                                             std::vector<std::string> endpoints) {
  EtcdClientConfig config;
  config.endpoints = std::move(endpoints);
  for (auto [file, out] : {std::pair{"/etcd/ca.crt", &config.ca_pem},
                           std::pair{"/apiserver-etcd-client.crt", &config.client_cert_pem},
                           std::pair{"/apiserver-etcd-client.key", &config.client_key_pem}}) {
    auto content = fs.ReadFile(cert_dir + file);
    if (!content) return content.error().Wrap("reading the etcd client credentials");
    *out = std::move(*content);
  }
  return config;
}

Result<EtcdMember> EtcdMemberFromJson(const nlohmann::json& member) {
  if (!member.is_object()) return InvalidArgument("etcd: a member is not an object");
  auto id = Uint64Field(member, "ID");
  if (!id) return id.error();
  EtcdMember out;
  out.id = *id;
  out.name = StringField(member, "name");
  out.peer_urls = Strings(member, "peerURLs");
  out.client_urls = Strings(member, "clientURLs");
  out.is_learner = BoolField(member, "isLearner");
  return out;
}

EtcdClient::EtcdClient(EtcdClientConfig config, std::unique_ptr<HttpClient> http)
    : config_(std::move(config)),
      clock_(config_.clock != nullptr ? config_.clock : &RealClock()),
      http_(std::move(http)) {
  if (!http_) {
    HttpClientOptions options;
    options.ca_pem = config_.ca_pem;
    options.client_cert_pem = config_.client_cert_pem;
    options.client_key_pem = config_.client_key_pem;
    options.request_timeout = config_.request_timeout;
    options.connect_timeout = std::min(config_.request_timeout, std::chrono::milliseconds(5000));
    http_ = NewHttpClient(std::move(options));
  }
}

Result<nlohmann::json> EtcdClient::CallOnce(const std::string& endpoint, const std::string& path,
                                            const nlohmann::json& body) {
  HttpRequest request;
  request.method = "POST";
  request.url = endpoint + path;
  request.body = body.dump();
  request.content_type = "application/json";
  auto response = http_->Do(request);
  if (!response) return response.error();
  if (response->status != 200) return GatewayError(response->status, response->body);
  auto parsed = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return Internal("etcd " + request.url + ": the answer is not JSON");
  if (parsed.contains("error")) return GatewayError(response->status, response->body);
  return parsed;
}

Result<nlohmann::json> EtcdClient::Call(const std::string& path, const nlohmann::json& body) {
  if (config_.endpoints.empty()) return InvalidArgument("etcd: no endpoints");
  const auto deadline = clock_->Now() + config_.retry_timeout;
  Status last;
  for (int attempt = 1;; ++attempt) {
    for (const auto& endpoint : config_.endpoints) {
      auto answer = CallOnce(endpoint, path, body);
      if (answer || answer.error().code() != StatusCode::kUnavailable) return answer;
      last = answer.error();
      spdlog::debug("etcd {} on {} attempt {}: {}", path, endpoint, attempt, last.message());
    }
    auto now = clock_->Now();
    if (now >= deadline) break;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
    const auto pause = std::min(config_.retry_interval, left);
    // Every endpoint failed this round: one Retry event, with the last endpoint's answer.
    config_.events.Emit("Retry", {{"what", "etcd-api"},
                                  {"attempt", attempt},
                                  {"reason", "etcd " + path + ": " + last.message()},
                                  {"delaySeconds", std::chrono::duration<double>(pause).count()}});
    clock_->Sleep(pause);
  }
  return Unavailable("etcd " + path + " did not succeed in time: " + last.message());
}

Result<std::vector<EtcdMember>> EtcdClient::MemberList() {
  auto answer = Call("/v3/cluster/member/list", nlohmann::json::object());
  if (!answer) return answer.error();
  return Members(*answer);
}

Result<EtcdMemberAddResult> EtcdClient::MemberAdd(const std::vector<std::string>& peer_urls,
                                                  bool is_learner) {
  nlohmann::json body = {{"peerURLs", peer_urls}, {"isLearner", is_learner}};
  auto answer = Call("/v3/cluster/member/add", body);
  if (!answer) return answer.error();
  EtcdMemberAddResult result;
  auto added = EtcdMemberFromJson(answer->value("member", nlohmann::json()));
  if (!added) return added.error();
  result.added = std::move(*added);
  auto members = Members(*answer);
  if (!members) return members.error();
  result.members = std::move(*members);
  return result;
}

Status EtcdClient::MemberPromote(uint64_t id) {
  return Call("/v3/cluster/member/promote", {{"ID", IdString(id)}}).status();
}

Status EtcdClient::MemberRemove(uint64_t id) {
  return Call("/v3/cluster/member/remove", {{"ID", IdString(id)}}).status();
}

Result<EtcdEndpointStatus> EtcdClient::EndpointStatus(const std::string& endpoint) {
  auto answer = CallOnce(endpoint, "/v3/maintenance/status", nlohmann::json::object());
  if (!answer) return answer.error();
  EtcdEndpointStatus status;
  status.version = StringField(*answer, "version");
  status.is_learner = BoolField(*answer, "isLearner");
  status.errors = Strings(*answer, "errors");
  const nlohmann::json header = answer->value("header", nlohmann::json::object());
  const nlohmann::json& body = *answer;
  struct Field {
    uint64_t* out;
    const nlohmann::json* obj;
    const char* key;
  };
  for (const Field& f :
       {Field{&status.member_id, &header, "member_id"}, Field{&status.leader, &body, "leader"},
        Field{&status.db_size, &body, "dbSize"}, Field{&status.raft_index, &body, "raftIndex"},
        Field{&status.raft_term, &body, "raftTerm"}}) {
    auto value = Uint64Field(*f.obj, f.key);
    if (!value) return value.error();
    *f.out = *value;
  }
  return status;
}

Status EtcdClient::EndpointHealth(const std::string& endpoint) {
  auto response = http_->Get(endpoint + "/health");
  if (!response) return response.error();
  auto parsed = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (response->status == 200 && parsed.is_object() && StringField(parsed, "health") == "true")
    return Status::Ok();
  return Unavailable("etcd " + endpoint + " is not healthy: " + response->body.substr(0, 200));
}

}  // namespace kkadm::util
