// Decoding of the pieces InitConfiguration and JoinConfiguration share: nodeRegistration,
// API endpoints, timeouts, bootstrap tokens.
#include <algorithm>
#include <cctype>

#include "app/config/decode.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/rfc3339.h"

namespace kkadm::config {
namespace {

void DecodeTaints(FieldReader& node, std::optional<std::vector<Taint>>& out) {
  const Json* list = node.Array("taints");
  if (!list) return;  // absent or null: nullopt
  std::vector<Taint> taints;
  for (size_t i = 0; i < list->size(); ++i) {
    std::string path = Indexed(node.Path("taints"), i);
    if (!(*list)[i].is_object())
      return node.context().Invalid(path, ValueText((*list)[i]), "must be an object");
    FieldReader item((*list)[i], path, node.context());
    Taint taint;
    item.String("key", taint.key);
    item.String("value", taint.value);
    item.String("effect", taint.effect);
    item.Skip("timeAdded");
    item.Finish();
    taints.push_back(std::move(taint));
  }
  out = std::move(taints);
}

void DecodeToken(FieldReader& item, BootstrapToken& token) {
  std::string text;
  item.String("token", text);
  if (auto parts = util::SplitBootstrapToken(text)) {
    token.id = std::move(parts->id);
    token.secret = std::move(parts->secret);
  } else if (!text.empty()) {
    // The secret part never reaches a message: only what precedes the dot is shown.
    item.context().Invalid(item.Path("token"), text.substr(0, text.find('.')) + ".<redacted>",
                           "the bootstrap token must match ^[a-z0-9]{6}\\.[a-z0-9]{16}$");
  }
  // An absent token is generated while defaulting, as kubeadm does.
}

}  // namespace

void DecodeNodeRegistration(FieldReader& parent, const char* key, NodeRegistration& out) {
  const Json* obj = parent.Object(key);
  if (!obj) return;
  FieldReader node(*obj, parent.Path(key), parent.context());
  node.String("name", out.name);
  std::transform(out.name.begin(), out.name.end(), out.name.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  node.String("criSocket", out.cri_socket);
  DecodeTaints(node, out.taints);
  node.Args("kubeletExtraArgs", out.kubelet_extra_args);
  node.StringList("ignorePreflightErrors", out.ignore_preflight_errors);
  node.String("imagePullPolicy", out.image_pull_policy);
  if (node.context().v1beta4()) node.Bool("imagePullSerial", out.image_pull_serial);
  node.Finish();
}

void DecodeAPIEndpoint(FieldReader& parent, const char* key, APIEndpoint& out) {
  const Json* obj = parent.Object(key);
  if (!obj) return;
  FieldReader ep(*obj, parent.Path(key), parent.context());
  ep.String("advertiseAddress", out.advertise_address);
  ep.Int("bindPort", out.bind_port);
  ep.Finish();
}

void DecodeTimeouts(FieldReader& parent, Timeouts& out) {
  const Json* obj = parent.Object("timeouts");
  if (!obj) return;
  FieldReader t(*obj, parent.Path("timeouts"), parent.context());
  t.Duration("controlPlaneComponentHealthCheck", out.control_plane_component_health_check);
  t.Duration("kubeletHealthCheck", out.kubelet_health_check);
  t.Duration("kubernetesAPICall", out.kubernetes_api_call);
  t.Duration("etcdAPICall", out.etcd_api_call);
  t.Duration("tlsBootstrap", out.tls_bootstrap);
  t.Duration("discovery", out.discovery);
  t.Duration("upgradeManifests", out.upgrade_manifests);
  t.Finish();
}

void DecodeBootstrapTokens(FieldReader& parent, std::vector<BootstrapToken>& out) {
  const Json* list = parent.Array("bootstrapTokens");
  if (!list) return;
  out.clear();
  for (size_t i = 0; i < list->size(); ++i) {
    std::string path = Indexed(parent.Path("bootstrapTokens"), i);
    const Json& doc = (*list)[i];
    if (!doc.is_object())
      return parent.context().Invalid(path, ValueText(doc), "must be an object");
    FieldReader item(doc, path, parent.context());
    BootstrapToken token;
    DecodeToken(item, token);
    item.String("description", token.description);
    item.OptionalDuration("ttl", token.ttl);
    std::string expires;
    item.String("expires", expires);
    if (!expires.empty()) {
      token.expires = util::ParseRfc3339(expires, util::Rfc3339Case::kAny);
      if (!token.expires)
        item.context().Invalid(item.Path("expires"), expires, "must be an RFC 3339 time");
    }
    item.StringList("usages", token.usages);
    item.StringList("groups", token.groups);
    item.Finish();
    out.push_back(std::move(token));
  }
}

void DecodeEnvs(FieldReader& parent, const char* key, std::vector<EnvVar>& out) {
  const Json* list = parent.Array(key);
  if (!list) return;
  for (size_t i = 0; i < list->size(); ++i) {
    std::string path = Indexed(parent.Path(key), i);
    if (!(*list)[i].is_object())
      return parent.context().Invalid(path, ValueText((*list)[i]), "must be an object");
    FieldReader item((*list)[i], path, parent.context());
    EnvVar env;
    item.String("name", env.name);
    item.String("value", env.value);
    item.Finish();
    out.push_back(std::move(env));
  }
}

}  // namespace kkadm::config
