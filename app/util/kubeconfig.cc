// Kubeconfig encoding (client-go's layout), decoding (the one YAML reader) and API server URL
// helpers.
#include "app/util/kubeconfig.h"

#include <fmt/format.h>
#include <openssl/evp.h>

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

// Reads a kubeconfig's fields from the one YAML reader's value as client-go decodes them: an
// absent or null field is empty, a string field holding anything but a string (or a boolean one
// anything but a boolean) is an error, the first of which is kept.
class FieldReader {
 public:
  const nlohmann::json& At(const nlohmann::json& node, const char* key) {
    static const nlohmann::json kAbsent;
    if (!node.is_object()) return kAbsent;
    auto it = node.find(key);
    return it == node.end() ? kAbsent : *it;
  }
  std::string Str(const nlohmann::json& node, const char* key) {
    const nlohmann::json& value = At(node, key);
    if (value.is_string()) return value.get<std::string>();
    if (!value.is_null()) Fail(std::string("kubeconfig field ") + key + " must be a string");
    return std::string();
  }
  bool Bool(const nlohmann::json& node, const char* key) {
    const nlohmann::json& value = At(node, key);
    if (value.is_boolean()) return value.get<bool>();
    if (!value.is_null()) Fail(std::string("kubeconfig field ") + key + " must be true or false");
    return false;
  }
  std::string Data(const nlohmann::json& node, const char* key) {
    Result<std::string> decoded = Base64Decode(Str(node, key));
    if (decoded) return std::move(*decoded);
    if (status_.ok()) status_ = decoded.error().Wrap(key);
    return std::string();
  }
  const Status& status() const { return status_; }

 private:
  void Fail(std::string message) {
    if (status_.ok()) status_ = InvalidArgument(std::move(message));
  }
  Status status_;
};

Status DecodeNamed(const nlohmann::json& root, Kubeconfig& out) {
  FieldReader read;
  for (const nlohmann::json& item : read.At(root, "clusters")) {
    const nlohmann::json& c = read.At(item, "cluster");
    KubeconfigCluster cluster{read.Str(item, "name"), read.Str(c, "server"),
                              read.Data(c, "certificate-authority-data"),
                              read.Str(c, "certificate-authority")};
    cluster.insecure_skip_tls_verify = read.Bool(c, "insecure-skip-tls-verify");
    out.clusters.push_back(std::move(cluster));
  }
  for (const nlohmann::json& item : read.At(root, "users")) {
    const nlohmann::json& u = read.At(item, "user");
    out.users.push_back({read.Str(item, "name"), read.Data(u, "client-certificate-data"),
                         read.Data(u, "client-key-data"), read.Str(u, "client-certificate"),
                         read.Str(u, "client-key"), read.Str(u, "token")});
  }
  for (const nlohmann::json& item : read.At(root, "contexts")) {
    const nlohmann::json& c = read.At(item, "context");
    out.contexts.push_back({read.Str(item, "name"), read.Str(c, "cluster"), read.Str(c, "user"),
                            read.Str(c, "namespace")});
  }
  out.current_context = read.Str(root, "current-context");
  return read.status();
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
  // A kubeconfig comes from files and from the network (cluster-info): the one reader bounds it
  // and decodes it, as every YAML kkadm reads.
  Result<nlohmann::json> root = yaml::Read(yaml);
  if (!root) return InvalidArgument("invalid kubeconfig: " + root.error().message());
  if (!root->is_object()) return InvalidArgument("kubeconfig is not a YAML mapping");
  for (const char* list : {"clusters", "users", "contexts"}) {
    auto it = root->find(list);
    if (it != root->end() && !it->is_null() && !it->is_array()) {
      return InvalidArgument(std::string("kubeconfig field ") + list + " must be a list");
    }
  }
  Kubeconfig out;
  KKADM_RETURN_IF_ERROR(DecodeNamed(*root, out));
  return out;
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
