// Bootstrap token strings and Secrets (see token.h).
#include "app/phases/bootstraptoken/token.h"

#include <ctime>
#include <sstream>

#include "app/util/bootstrap_token_syntax.h"
#include "app/util/crypto.h"
#include "app/util/kube_apply.h"
#include "app/util/rfc3339.h"

namespace kkadm::phases {
namespace {

constexpr std::string_view kCharset = "0123456789abcdefghijklmnopqrstuvwxyz";

Result<std::string> RandomTokenChars(size_t n) {
  std::string out;
  while (out.size() < n) {
    auto bytes = util::RandomBytes(n);
    if (!bytes) return bytes.error();
    for (unsigned char b : *bytes) {
      // 252 = 7*36: discarding larger values keeps every character equally likely.
      if (b >= 252 || out.size() == n) continue;
      out.push_back(kCharset[b % kCharset.size()]);
    }
  }
  return out;
}

std::string SplitJoinGroups(const std::vector<std::string>& groups) {
  std::string out;
  for (const auto& g : groups) out += (out.empty() ? "" : ",") + g;
  return out;
}

}  // namespace

Result<std::string> GenerateBootstrapTokenString() {
  auto id = RandomTokenChars(6);
  if (!id) return id.error();
  auto secret = RandomTokenChars(16);
  if (!secret) return secret.error();
  return *id + "." + *secret;
}

bool IsValidTokenId(const std::string& id) { return util::IsBootstrapTokenId(id); }

Result<config::BootstrapToken> ParseBootstrapToken(const std::string& token) {
  auto parts = util::SplitBootstrapToken(token);
  if (!parts) {
    return InvalidArgument("the bootstrap token \"" + token +
                           "\" was not of the form \"^([a-z0-9]{6})\\.([a-z0-9]{16})$\"");
  }
  config::BootstrapToken out;
  out.id = std::move(parts->id);
  out.secret = std::move(parts->secret);
  return out;
}

std::string FormatRfc3339(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(
      std::chrono::time_point_cast<std::chrono::seconds>(t));
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Result<std::chrono::system_clock::time_point> ParseRfc3339(const std::string& text) {
  auto time = util::ParseRfc3339(text, util::Rfc3339Case::kUpper);
  if (!time) return InvalidArgument("invalid RFC3339 time " + text);
  return *time;
}

nlohmann::json BootstrapTokenSecret(const config::BootstrapToken& token,
                                    std::chrono::system_clock::time_point now) {
  nlohmann::json data = {{"token-id", util::Base64Encode(token.id)},
                         {"token-secret", util::Base64Encode(token.secret)}};
  if (!token.description.empty()) data["description"] = util::Base64Encode(token.description);
  if (token.expires) {
    data["expiration"] = util::Base64Encode(FormatRfc3339(*token.expires));
  } else if (token.ttl && token.ttl->count() > 0) {
    data["expiration"] = util::Base64Encode(FormatRfc3339(now + *token.ttl));
  }
  for (const auto& usage : token.usages) {
    data["usage-bootstrap-" + usage] = util::Base64Encode("true");
  }
  if (!token.groups.empty()) data["auth-extra-groups"] = util::Base64Encode(SplitJoinGroups(token.groups));
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata",
           {{"name", kBootstrapTokenSecretPrefix + token.id}, {"namespace", util::kKubeSystem}}},
          {"type", kBootstrapTokenSecretType},
          {"data", data}};
}

Result<config::BootstrapToken> BootstrapTokenFromSecret(const nlohmann::json& secret) {
  const std::string name = secret.value("/metadata/name"_json_pointer, std::string());
  auto field = [&](const std::string& key) -> std::string {
    const auto& data = secret.value("data", nlohmann::json::object());
    if (!data.contains(key) || !data[key].is_string()) return "";
    return util::Base64Decode(data[key].get<std::string>()).value_or(std::string());
  };
  config::BootstrapToken token;
  token.id = field("token-id");
  token.secret = field("token-secret");
  if (!IsValidTokenId(token.id) || name != kBootstrapTokenSecretPrefix + token.id ||
      !ParseBootstrapToken(token.Token())) {
    return InvalidArgument("bootstrap token secret \"" + name + "\" is not valid");
  }
  token.description = field("description");
  if (std::string exp = field("expiration"); !exp.empty()) {
    auto t = ParseRfc3339(exp);
    if (!t) return t.error();
    token.expires = *t;
  }
  token.usages.clear();
  const auto& data = secret.value("data", nlohmann::json::object());
  for (auto it = data.begin(); it != data.end(); ++it) {
    const std::string prefix = "usage-bootstrap-";
    if (it.key().rfind(prefix, 0) == 0 && field(it.key()) == "true") {
      token.usages.push_back(it.key().substr(prefix.size()));
    }
  }
  token.groups.clear();
  std::stringstream groups(field("auth-extra-groups"));
  for (std::string g; std::getline(groups, g, ',');) {
    if (!g.empty()) token.groups.push_back(g);
  }
  return token;
}

}  // namespace kkadm::phases
