// Secret kubeadm-certs (see upload_certs.h).
#include "app/phases/uploadcerts/upload_certs.h"

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/bootstraptoken/token.h"
#include "app/util/bootstrap_token_syntax.h"
#include "app/util/crypto.h"
#include "app/util/kube_apply.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

// The token whose Secret owns kubeadm-certs, so the certificates vanish when it expires.
Result<json> CreateOwnerToken(util::KubeClient& client, std::chrono::system_clock::time_point now) {
  auto generated = util::GenerateBootstrapToken();
  if (!generated) return generated.error();
  auto token = ParseBootstrapToken(*generated);
  if (!token) return token.error();
  token->description = kCertsTokenDescription;
  token->ttl = kCertsTokenTtl;
  KKADM_RETURN_IF_ERROR(UpdateOrCreateTokens(client, true, {*token}, now));
  auto secret = client.Get(std::string("/api/v1/namespaces/kube-system/secrets/") +
                           kBootstrapTokenSecretPrefix + token->id);
  if (!secret) return secret.error();
  return json::array({{{"apiVersion", "v1"},
                       {"kind", "Secret"},
                       {"name", (*secret)["metadata"].value("name", "")},
                       {"uid", (*secret)["metadata"].value("uid", "")},
                       {"controller", true},
                       {"blockOwnerDeletion", true}}});
}

Result<json> EncryptedFiles(const util::FileSystem& fs, const config::ClusterConfiguration& cluster,
                            const std::string& key) {
  json data = json::object();
  for (const auto& [name, path] : CertsToTransfer(cluster)) {
    auto content = fs.ReadFile(path);
    if (!content && content.error().code() == StatusCode::kNotFound) {
      data[name] = "";
      continue;
    }
    if (!content) return content.error();
    auto sealed = util::EncryptBytes(*content, key);
    if (!sealed) return sealed.error();
    data[name] = util::Base64Encode(*sealed);
  }
  return data;
}

}  // namespace

std::map<std::string, std::string> CertsToTransfer(const config::ClusterConfiguration& cluster) {
  const std::string dir = cluster.certificates_dir + "/";
  std::map<std::string, std::string> out;
  for (const char* name :
       {"ca.crt", "ca.key", "front-proxy-ca.crt", "front-proxy-ca.key", "sa.pub", "sa.key"}) {
    out[name] = dir + name;
  }
  if (cluster.etcd.external) {
    out["external-etcd-ca.crt"] = cluster.etcd.external->ca_file;
    out["external-etcd.crt"] = cluster.etcd.external->cert_file;
    out["external-etcd.key"] = cluster.etcd.external->key_file;
  } else {
    out["etcd-ca.crt"] = dir + "etcd/ca.crt";
    out["etcd-ca.key"] = dir + "etcd/ca.key";
  }
  return out;
}

Status UploadCerts(util::KubeClient& client, const util::FileSystem& fs, util::Printer& out,
                   const config::ClusterConfiguration& cluster, const std::string& certificate_key,
                   std::chrono::system_clock::time_point now) {
  out.Line("upload-certs", std::string("Storing the certificates in Secret \"") +
                               kKubeadmCertsSecret + "\" in the \"kube-system\" Namespace");
  auto key = util::DecodeCertificateKey(certificate_key);
  if (!key) return key.error().Wrap("error decoding certificate key");
  auto owner = CreateOwnerToken(client, now);
  if (!owner) return owner.error().Wrap("error creating the bootstrap token for kubeadm-certs");
  auto data = EncryptedFiles(fs, cluster, *key);
  if (!data) return data.error();
  json secret = {{"apiVersion", "v1"},
                 {"kind", "Secret"},
                 {"metadata",
                  {{"name", kKubeadmCertsSecret},
                   {"namespace", util::kKubeSystem},
                   {"ownerReferences", *owner}}},
                 {"data", *data}};
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(client, secret));
  const std::string role = "kubeadm:kubeadm-certs";
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client, util::Role(util::kKubeSystem, role,
                         json::array({util::PolicyRule({"get"}, {""}, {"secrets"},
                                                       {kKubeadmCertsSecret})}))));
  return util::CreateOrUpdate(
      client,
      util::RoleBinding(util::kKubeSystem, role, role,
                        json::array({util::RbacSubject("Group", util::kNodeBootstrapTokenGroup)})));
}

Result<std::map<std::string, std::string>> DecryptKubeadmCerts(const json& secret,
                                                               const std::string& certificate_key) {
  auto key = util::DecodeCertificateKey(certificate_key);
  if (!key) return key.error();
  std::map<std::string, std::string> out;
  const json data = secret.value("data", json::object());
  for (auto it = data.begin(); it != data.end(); ++it) {
    if (!it->is_string() || it->get<std::string>().empty()) continue;
    auto sealed = util::Base64Decode(it->get<std::string>());
    if (!sealed) return sealed.error();
    auto plain = util::DecryptBytes(*sealed, *key);
    if (!plain) return plain.error().Wrap("error decrypting " + it.key());
    out[it.key()] = *plain;
  }
  return out;
}

Status DownloadCerts(util::KubeClient& client, util::FileSystem& fs, util::Printer& out,
                     const config::ClusterConfiguration& cluster,
                     const std::string& certificate_key) {
  out.Line(
      "download-certs",
      fmt::format("Downloading the certificates in Secret \"{}\" in the \"kube-system\" Namespace",
                  kKubeadmCertsSecret));
  auto secret =
      client.Get(std::string("/api/v1/namespaces/kube-system/secrets/") + kKubeadmCertsSecret);
  if (!secret && secret.error().code() == StatusCode::kNotFound) {
    return NotFound(
        fmt::format("error downloading the secret: Secret \"{}\" was not found in the "
                    "\"kube-system\" Namespace. "
                    "This Secret might have expired. Please, run `kkadm init phase upload-certs "
                    "--upload-certs` "
                    "on a control plane to generate a new one",
                    kKubeadmCertsSecret));
  }
  if (!secret) return secret.error().Wrap("error downloading the secret");
  auto files = DecryptKubeadmCerts(*secret, certificate_key);
  if (!files) return files.error().Wrap("error decoding secret data with provided key");
  out.Line("download-certs",
           fmt::format("Saving the certificates to the folder: \"{}\"", cluster.certificates_dir));
  const auto paths = CertsToTransfer(cluster);
  for (const auto& [key, content] : *files) {
    auto path = paths.find(key);
    if (path == paths.end()) {
      spdlog::warn("[download-certs] ignoring unknown entry \"{}\" of Secret {}", key,
                   kKubeadmCertsSecret);
      continue;
    }
    const unsigned mode = key.ends_with(".key") ? 0600 : 0644;
    KKADM_RETURN_IF_ERROR(
        fs.WriteFile(path->second, content, mode).Wrap("writing " + path->second));
  }
  return Status::Ok();
}

}  // namespace kkadm::phases
