// Bootstrap token strings and Secrets (see token.h).
#include "app/phases/bootstraptoken/token.h"

#include <sstream>

#include "app/util/bootstrap_token_syntax.h"
#include "app/util/kube_apply.h"
#include "app/util/kubeconfig.h"
#include "app/util/rfc3339.h"
#include "app/util/strings.h"

namespace kkadm::phases {

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

nlohmann::json BootstrapTokenSecret(const config::BootstrapToken& token,
                                    std::chrono::system_clock::time_point now) {
  nlohmann::json data = {{"token-id", util::Base64Encode(token.id)},
                         {"token-secret", util::Base64Encode(token.secret)}};
  if (!token.description.empty()) data["description"] = util::Base64Encode(token.description);
  if (token.expires) {
    data["expiration"] = util::Base64Encode(util::FormatRfc3339(*token.expires));
  } else if (token.ttl && token.ttl->count() > 0) {
    data["expiration"] = util::Base64Encode(util::FormatRfc3339(now + *token.ttl));
  }
  for (const auto& usage : token.usages) {
    data["usage-bootstrap-" + usage] = util::Base64Encode("true");
  }
  if (!token.groups.empty()) {
    data["auth-extra-groups"] = util::Base64Encode(util::Join(token.groups, ","));
  }
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
    auto t = util::ParseRfc3339(exp, util::Rfc3339Case::kUpper);
    if (!t) return InvalidArgument("invalid RFC3339 time " + exp);
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
