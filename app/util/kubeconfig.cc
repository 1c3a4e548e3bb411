// Kubeconfig encoding (client-go's layout), decoding (yaml-cpp) and API server URL helpers.
#include "app/util/kubeconfig.h"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "app/util/file_system.h"
#include "app/util/net_rules.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::util {
namespace {

std::string Scalar(const std::string& s) { return yaml::StringScalar(s); }

// Appends "<indent><key>: <value>\n" when value is not empty (client-go's omitempty).
void Field(std::string& out, const char* indent, const char* key, const std::string& value) {
  if (!value.empty()) out += fmt::format("{}{}: {}\n", indent, key, Scalar(value));
}

void EncodeClusters(std::string& out, const std::vector<KubeconfigCluster>& clusters) {
  out += clusters.empty() ? "clusters: []\n" : "clusters:\n";
  for (const auto& c : clusters) {
    out += "- cluster:\n";
    Field(out, "    ", "certificate-authority", c.certificate_authority);
    if (!c.certificate_authority_data.empty()) {
      Field(out, "    ", "certificate-authority-data", Base64Encode(c.certificate_authority_data));
    }
    if (c.insecure_skip_tls_verify) out += "    insecure-skip-tls-verify: true\n";
    Field(out, "    ", "server", c.server);
    out += "  name: " + Scalar(c.name) + "\n";
  }
}

void EncodeContexts(std::string& out, const std::vector<KubeconfigContext>& contexts) {
  out += contexts.empty() ? "contexts: []\n" : "contexts:\n";
  for (const auto& c : contexts) {
    out += "- context:\n";
    Field(out, "    ", "cluster", c.cluster);
    Field(out, "    ", "namespace", c.namespace_name);
    Field(out, "    ", "user", c.user);
    out += "  name: " + Scalar(c.name) + "\n";
  }
}

void EncodeUsers(std::string& out, const std::vector<KubeconfigUser>& users) {
  out += users.empty() ? "users: []\n" : "users:\n";
  for (const auto& u : users) {
    out += "- name: " + Scalar(u.name) + "\n";
    bool empty = u.client_certificate.empty() && u.client_certificate_data.empty() &&
                 u.client_key.empty() && u.client_key_data.empty() && u.token.empty();
    out += empty ? "  user: {}\n" : "  user:\n";
    Field(out, "    ", "client-certificate", u.client_certificate);
    if (!u.client_certificate_data.empty()) {
      Field(out, "    ", "client-certificate-data", Base64Encode(u.client_certificate_data));
    }
    Field(out, "    ", "client-key", u.client_key);
    if (!u.client_key_data.empty()) {
      Field(out, "    ", "client-key-data", Base64Encode(u.client_key_data));
    }
    Field(out, "    ", "token", u.token);
  }
}

std::string Str(const YAML::Node& node, const char* key) {
  const YAML::Node v = node[key];
  if (!v || v.IsNull()) return std::string();
  if (!v.IsScalar()) throw YAML::Exception(v.Mark(), std::string(key) + " must be a string");
  return v.as<std::string>();
}

Result<std::string> Data(const YAML::Node& node, const char* key) {
  auto decoded = Base64Decode(Str(node, key));
  if (!decoded) return decoded.error().Wrap(key);
  return decoded;
}

Status DecodeNamed(const YAML::Node& root, Kubeconfig& out) {
  for (const auto& item : root["clusters"]) {
    KubeconfigCluster c{Str(item, "name"), Str(item["cluster"], "server"), "",
                        Str(item["cluster"], "certificate-authority")};
    auto ca = Data(item["cluster"], "certificate-authority-data");
    if (!ca) return ca.error();
    c.certificate_authority_data = std::move(*ca);
    c.insecure_skip_tls_verify = Str(item["cluster"], "insecure-skip-tls-verify") == "true";
    out.clusters.push_back(std::move(c));
  }
  for (const auto& item : root["users"]) {
    const YAML::Node u = item["user"];
    KubeconfigUser user{
        Str(item, "name"), "", "", Str(u, "client-certificate"), Str(u, "client-key"),
        Str(u, "token")};
    auto cert = Data(u, "client-certificate-data");
    auto key = Data(u, "client-key-data");
    if (!cert) return cert.error();
    if (!key) return key.error();
    user.client_certificate_data = std::move(*cert);
    user.client_key_data = std::move(*key);
    out.users.push_back(std::move(user));
  }
  for (const auto& item : root["contexts"]) {
    const YAML::Node c = item["context"];
    out.contexts.push_back(
        {Str(item, "name"), Str(c, "cluster"), Str(c, "user"), Str(c, "namespace")});
  }
  return Status();
}

template <class T>
const T* FindNamed(const std::vector<T>& items, const std::string& name) {
  for (const auto& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

}  // namespace

const KubeconfigContext* Kubeconfig::CurrentContext() const {
  return FindNamed(contexts, current_context);
}
const KubeconfigCluster* Kubeconfig::CurrentCluster() const {
  const auto* ctx = CurrentContext();
  return ctx ? FindNamed(clusters, ctx->cluster) : nullptr;
}
const KubeconfigUser* Kubeconfig::CurrentUser() const {
  const auto* ctx = CurrentContext();
  return ctx ? FindNamed(users, ctx->user) : nullptr;
}

Kubeconfig NewKubeconfig(const std::string& server, const std::string& cluster_name,
                         const std::string& user_name, const std::string& ca_pem) {
  Kubeconfig k;
  std::string context = user_name + "@" + cluster_name;
  k.clusters.push_back({cluster_name, server, ca_pem, ""});
  k.contexts.push_back({context, cluster_name, user_name, ""});
  k.users.push_back({user_name, "", "", "", "", ""});
  k.current_context = context;
  return k;
}

Kubeconfig NewKubeconfigWithClientCert(const std::string& server, const std::string& cluster_name,
                                       const std::string& user_name, const std::string& ca_pem,
                                       const std::string& key_pem, const std::string& cert_pem) {
  Kubeconfig k = NewKubeconfig(server, cluster_name, user_name, ca_pem);
  k.users[0].client_certificate_data = cert_pem;
  k.users[0].client_key_data = key_pem;
  return k;
}

Kubeconfig NewKubeconfigWithToken(const std::string& server, const std::string& cluster_name,
                                  const std::string& user_name, const std::string& ca_pem,
                                  const std::string& token) {
  Kubeconfig k = NewKubeconfig(server, cluster_name, user_name, ca_pem);
  k.users[0].token = token;
  return k;
}

std::string EncodeKubeconfig(const Kubeconfig& config) {
  std::string out = "apiVersion: v1\n";
  EncodeClusters(out, config.clusters);
  EncodeContexts(out, config.contexts);
  out += "current-context: " + Scalar(config.current_context) + "\n";
  out += "kind: Config\npreferences: {}\n";
  EncodeUsers(out, config.users);
  return out;
}

Result<Kubeconfig> DecodeKubeconfig(std::string_view yaml) {
  // A kubeconfig comes from files and from the network (cluster-info): the one reader checks it
  // against its limits and characters first, so yaml-cpp below only ever sees a bounded text.
  if (Result<nlohmann::json> checked = yaml::Read(yaml); !checked) {
    return InvalidArgument("invalid kubeconfig: " + checked.error().message());
  }
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    if (!root.IsMap()) return InvalidArgument("kubeconfig is not a YAML mapping");
    for (const char* list : {"clusters", "users", "contexts"}) {
      if (root[list] && !root[list].IsNull() && !root[list].IsSequence()) {
        return InvalidArgument(std::string("kubeconfig field ") + list + " must be a list");
      }
    }
    Kubeconfig out;
    KKADM_RETURN_IF_ERROR(DecodeNamed(root, out));
    out.current_context = Str(root, "current-context");
    return out;
  } catch (const YAML::Exception& e) {
    return InvalidArgument(std::string("invalid kubeconfig: ") + e.what());
  }
}

Result<KubeconfigCluster> ReadCurrentCluster(const FileSystem& fs, const std::string& path) {
  auto text = fs.ReadFile(path);
  if (!text) return text.error();
  auto kubeconfig = DecodeKubeconfig(*text);
  if (!kubeconfig) return kubeconfig.error();
  const KubeconfigCluster* current = kubeconfig->CurrentCluster();
  if (current == nullptr) {
    return InvalidArgument("kubeconfig \"" + path + "\" has no cluster for its current context \"" +
                           kubeconfig->current_context + "\"");
  }
  KubeconfigCluster cluster = *current;
  if (cluster.certificate_authority_data.empty() && !cluster.certificate_authority.empty()) {
    auto ca = fs.ReadFile(cluster.certificate_authority);
    if (!ca) return ca.error().Wrap("reading the kubeconfig's CA");
    cluster.certificate_authority_data = std::move(*ca);
  }
  return cluster;
}

std::string Base64Encode(std::string_view data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(data.data()),
                          static_cast<int>(data.size()));
  out.resize(static_cast<size_t>(std::max(n, 0)));
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  std::string clean;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) clean += c;
  }
  if (clean.size() % 4 != 0) return InvalidArgument("illegal base64 data: bad length");
  std::string out(clean.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(clean.data()),
                          static_cast<int>(clean.size()));
  if (n < 0) return InvalidArgument("illegal base64 data");
  // EVP_DecodeBlock counts the padding as zero bytes.
  size_t pad = 0;
  if (!clean.empty() && clean.back() == '=') ++pad;
  if (clean.size() > 1 && clean[clean.size() - 2] == '=') ++pad;
  out.resize(static_cast<size_t>(n) - pad);
  return out;
}

std::string FormatServerUrl(const std::string& host, const std::string& port) {
  return "https://" + JoinHostPort(host, port);
}

}  // namespace kkadm::util
