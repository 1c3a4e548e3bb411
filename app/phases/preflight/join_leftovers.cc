// Recognising an unfinished join of this node by its files.
#include "app/phases/preflight/join_leftovers.h"

#include "app/util/kubeconfig.h"
#include "app/util/pki/certificate.h"

namespace kkadm::phases {
namespace {

// Only certificates count: a file that holds none is not something a join wrote.
Result<std::string> CaOf(const std::string& path, const std::string& pem) {
  auto certs = util::pki::Certificate::ParsePemBundle(pem);
  if (!certs) return InvalidArgument(path + " holds no certificate");
  return TrimmedPem(pem);
}

// The CA a join file trusts: ca.crt itself, or a kubeconfig's current cluster CA.
Result<std::string> TrustedCa(const util::FileSystem& fs, const std::string& path,
                              bool is_kubeconfig) {
  auto text = fs.ReadFile(path);
  if (!text) return text.error();
  if (!is_kubeconfig) return CaOf(path, *text);
  auto config = util::DecodeKubeconfig(*text);
  if (!config) return config.error();
  const util::KubeconfigCluster* cluster = config->CurrentCluster();
  if (cluster == nullptr) return InvalidArgument(path + " has no current cluster");
  if (!cluster->certificate_authority_data.empty())
    return CaOf(path, cluster->certificate_authority_data);
  if (cluster->certificate_authority.empty()) return InvalidArgument(path + " names no CA");
  auto ca = fs.ReadFile(cluster->certificate_authority);
  if (!ca) return ca.error();
  return CaOf(cluster->certificate_authority, *ca);
}

}  // namespace

std::string TrimmedPem(const std::string& pem) {
  const char* kSpace = " \t\r\n";
  const auto begin = pem.find_first_not_of(kSpace);
  if (begin == std::string::npos) return "";
  return pem.substr(begin, pem.find_last_not_of(kSpace) - begin + 1);
}

JoinLeftovers FindJoinLeftovers(const util::FileSystem& fs, const JoinFilePaths& paths) {
  JoinLeftovers out;
  const std::pair<const std::string*, bool> files[] = {{&paths.ca_cert, false},
                                                       {&paths.bootstrap_conf, true},
                                                       {&paths.kubelet_conf, true},
                                                       {&paths.admin_conf, true}};
  for (const auto& [path, is_kubeconfig] : files) {
    if (path->empty() || !fs.Exists(*path)) continue;
    out.files.push_back(*path);
    if (*path == paths.kubelet_conf) out.kubelet_identity = true;
    auto ca = TrustedCa(fs, *path, is_kubeconfig);
    if (!ca) {
      out.conflict = *path + ": " + ca.error().message();
    } else if (out.ca_pem.empty()) {
      out.ca_pem = *ca;
    } else if (*ca != out.ca_pem) {
      out.conflict = *path + " trusts another CA than " + out.files.front();
    }
  }
  return out;
}

bool KubeconfigIdentifiesAs(const util::FileSystem& fs, const std::string& path,
                            const std::string& user) {
  auto text = fs.ReadFile(path);
  if (!text) return false;
  auto config = util::DecodeKubeconfig(*text);
  if (!config || config->CurrentUser() == nullptr) return false;
  const util::KubeconfigUser& u = *config->CurrentUser();
  std::string pem = u.client_certificate_data;
  if (pem.empty() && !u.client_certificate.empty()) {
    auto file = fs.ReadFile(u.client_certificate);
    if (!file) return false;
    pem = std::move(*file);
  }
  auto cert = util::pki::Certificate::ParsePem(pem);
  return cert && cert->CommonName() == user;
}

}  // namespace kkadm::phases
