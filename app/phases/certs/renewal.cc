// Renewal of leaf and kubeconfig client certificates from the local CAs (see renewal.h).
#include "app/phases/certs/renewal.h"

#include <fmt/format.h>

#include <algorithm>

#include "app/phases/certs/external_ca.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/util/kubeconfig.h"
#include "app/util/pki/pki_files.h"
#include "app/util/pki/sign.h"

namespace kkadm::phases::certs {
namespace {

using util::pki::Certificate;
using util::pki::PrivateKey;

struct KubeconfigItem {
  const char* file;
  const char* long_name;
};

constexpr KubeconfigItem kKubeconfigItems[] = {
    {kubeconfig::kAdminConf,
     "certificate embedded in the kubeconfig file for the admin to use and for kubeadm itself"},
    {kubeconfig::kSuperAdminConf,
     "certificate embedded in the kubeconfig file for the super-admin"},
    {kubeconfig::kControllerManagerConf,
     "certificate embedded in the kubeconfig file for the controller manager to use"},
    {kubeconfig::kSchedulerConf,
     "certificate embedded in the kubeconfig file for the scheduler manager to use"},
};

std::string CaBaseOf(const std::string& ca_name) {
  const CertSpec* ca = FindCertSpec(ca_name);
  return ca != nullptr ? ca->base_name : ca_name;
}

std::vector<RenewalItem> AllItems() {
  std::vector<RenewalItem> items;
  for (const CertSpec& spec : CertList()) {
    if (spec.IsCa()) continue;
    items.push_back(
        {spec.name, spec.long_name, spec.ca_name, CaBaseOf(spec.ca_name), spec.base_name});
  }
  for (const KubeconfigItem& k : kKubeconfigItems) {
    items.push_back({k.file, k.long_name, "ca", "ca", ""});
  }
  std::sort(items.begin(), items.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return items;
}

std::string KubeconfigPath(const RenewalItem& item, const RenewalEnv& env) {
  return env.kubeconfig_dir + "/" + item.name;
}

// The current context's cluster and user of a kubeconfig, each with embedded data, as kubeadm's
// kubeConfigReadWriter.Read demands.
Result<util::Kubeconfig> ReadKubeconfig(const std::string& path, const util::FileSystem& fs) {
  auto data = fs.ReadFile(path);
  if (!data) return data.error().Wrap("failed to load kubeConfig file " + path);
  auto config = util::DecodeKubeconfig(*data);
  if (!config) return config.error().Wrap("failed to load kubeConfig file " + path);
  const util::KubeconfigContext* context = config->CurrentContext();
  if (context == nullptr) {
    return FailedPrecondition(fmt::format("invalid kubeConfig file {}: missing context {}", path,
                                          config->current_context));
  }
  const util::KubeconfigCluster* cluster = config->CurrentCluster();
  if (cluster == nullptr) {
    return FailedPrecondition(
        fmt::format("invalid kubeConfig file {}: missing cluster {}", path, context->cluster));
  }
  if (cluster->certificate_authority_data.empty()) {
    return FailedPrecondition(
        fmt::format("kubeConfig file {} does not have an embedded server certificate", path));
  }
  const util::KubeconfigUser* user = config->CurrentUser();
  if (user == nullptr) {
    return FailedPrecondition(
        fmt::format("invalid kubeConfig file {}: missing authInfo {}", path, context->user));
  }
  if (user->client_certificate_data.empty()) {
    return FailedPrecondition(
        fmt::format("kubeConfig file {} does not have an embedded client certificate", path));
  }
  return config;
}

Result<Certificate> ClientCertificateOf(const util::Kubeconfig& config, const std::string& path) {
  auto cert = Certificate::ParsePem(config.CurrentUser()->client_certificate_data);
  if (!cert) {
    return cert.error().Wrap(
        fmt::format("kubeConfig file {} does not contain a valid client certificate", path));
  }
  return cert;
}

// kubeadm's certToConfig: what the new certificate keeps of the old one.
util::pki::CertConfig ConfigOf(const Certificate& cert, const RenewalEnv& env) {
  util::pki::CertConfig config;
  config.common_name = cert.CommonName();
  config.organizations = cert.Organizations();
  config.dns_names = cert.DnsNames();
  config.ips = cert.IpAddresses();
  config.usages = cert.ExtKeyUsages();
  const auto start = env.clock.Now();
  config.not_before = start - std::chrono::minutes(5);
  config.not_after = start + env.cluster.certificate_validity_period;
  return config;
}

struct Issued {
  Certificate cert;
  PrivateKey key;
};

Result<Issued> Reissue(const RenewalItem& item, const Certificate& old, const RenewalEnv& env) {
  auto ca = util::pki::LoadCertificateAuthority(env.fs, env.cert_dir(), item.ca_base);
  if (!ca) return ca.error();
  auto key = PrivateKey::Generate(KeyTypeFor(env.cluster.encryption_algorithm));
  if (!key) return key.error().Wrap("unable to create private key");
  auto cert = util::pki::SignLeaf(ConfigOf(old, env), *key, ca->cert, ca->key);
  if (!cert) return cert.error().Wrap("failed to renew certificate " + item.name);
  return Issued{std::move(*cert), std::move(*key)};
}

// Writes a leaf's new pair so that a kill leaves it old, new, or completable (renewal.h).
Status WriteLeaf(const RenewalItem& item, const Issued& issued, const RenewalEnv& env) {
  auto key_pem = issued.key.ToPem();
  if (!key_pem) return key_pem.error();
  const std::string pending = PendingRenewalPath(item, env);
  KKADM_RETURN_IF_ERROR(env.fs.WriteFile(pending, *key_pem + issued.cert.ToPem(), 0600));
  KKADM_RETURN_IF_ERROR(env.fs.Sync());
  KKADM_RETURN_IF_ERROR(
      util::pki::WriteCertAndKey(env.fs, env.cert_dir(), item.base_name, issued.cert, issued.key));
  KKADM_RETURN_IF_ERROR(env.fs.Sync());
  KKADM_RETURN_IF_ERROR(env.fs.Remove(pending));
  return env.fs.Sync();
}

Status WriteKubeconfig(const RenewalItem& item, util::Kubeconfig config, const Issued& issued,
                       const RenewalEnv& env) {
  auto ca = util::pki::LoadCert(env.fs, util::pki::CertPath(env.cert_dir(), item.ca_base));
  if (!ca) return ca.error();
  auto key_pem = issued.key.ToPem();
  if (!key_pem) return key_pem.error();
  const std::string cluster_name = config.CurrentContext()->cluster;
  const std::string user_name = config.CurrentContext()->user;
  for (util::KubeconfigCluster& cluster : config.clusters) {
    if (cluster.name == cluster_name) cluster.certificate_authority_data = ca->ToPem();
  }
  for (util::KubeconfigUser& user : config.users) {
    if (user.name != user_name) continue;
    user.client_certificate_data = issued.cert.ToPem();
    user.client_key_data = *key_pem;
  }
  KKADM_RETURN_IF_ERROR(
      env.fs.WriteFile(KubeconfigPath(item, env), util::EncodeKubeconfig(config), 0600));
  return env.fs.Sync();
}

}  // namespace

std::vector<RenewalItem> RenewalItems(bool external_etcd) {
  std::vector<RenewalItem> items;
  for (RenewalItem& item : AllItems()) {
    if (external_etcd && item.ca_name == "etcd-ca") continue;
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<CertSpec> RenewalAuthorities(bool external_etcd) {
  std::vector<CertSpec> cas;
  for (const CertSpec& spec : CertList()) {
    if (spec.IsCa() && !(external_etcd && spec.IsEtcd())) cas.push_back(spec);
  }
  std::sort(cas.begin(), cas.end(), [](auto& a, auto& b) { return a.name < b.name; });
  return cas;
}

std::optional<RenewalItem> FindRenewalItem(std::string_view name) {
  for (RenewalItem& item : AllItems()) {
    if (item.name == name) return std::move(item);
  }
  return std::nullopt;
}

std::string ItemPath(const RenewalItem& item, const RenewalEnv& env) {
  if (item.IsKubeconfig()) return KubeconfigPath(item, env);
  return util::pki::CertPath(env.cert_dir(), item.base_name);
}

bool IsExternallyManaged(const std::string& ca_base, const RenewalEnv& env) {
  return UsingExternalCA(env.fs, env.cert_dir(), ca_base);
}

Result<Certificate> ReadItemCertificate(const RenewalItem& item, const RenewalEnv& env) {
  const std::string path = ItemPath(item, env);
  if (!item.IsKubeconfig()) return util::pki::LoadCert(env.fs, path);
  auto config = ReadKubeconfig(path, env.fs);
  if (!config) return config.error();
  return ClientCertificateOf(*config, path);
}

std::string PendingRenewalPath(const RenewalItem& item, const RenewalEnv& env) {
  const std::string cert = util::pki::CertPath(env.cert_dir(), item.base_name);
  const std::string dir = util::ParentDirectory(cert);
  const std::string file = cert.substr(cert.rfind('/') + 1);
  return dir + "/." + file.substr(0, file.size() - 4) + ".kkadm-renewal";
}

Result<RenewOutcome> RenewItem(const RenewalItem& item, const RenewalEnv& env) {
  const std::string path = ItemPath(item, env);
  if (!env.fs.Exists(path)) return RenewOutcome::kMissing;
  if (IsExternallyManaged(item.ca_base, env)) return RenewOutcome::kExternalCA;
  if (!item.IsKubeconfig()) {
    auto old = util::pki::LoadCert(env.fs, path);
    if (!old) return old.error();
    auto issued = Reissue(item, *old, env);
    if (!issued) return issued.error();
    KKADM_RETURN_IF_ERROR(WriteLeaf(item, *issued, env));
    return RenewOutcome::kRenewed;
  }
  auto config = ReadKubeconfig(path, env.fs);
  if (!config) return config.error();
  auto old = ClientCertificateOf(*config, path);
  if (!old) return old.error();
  auto issued = Reissue(item, *old, env);
  if (!issued) return issued.error();
  KKADM_RETURN_IF_ERROR(WriteKubeconfig(item, std::move(*config), *issued, env));
  return RenewOutcome::kRenewed;
}

Status FinishInterruptedRenewals(const RenewalEnv& env, util::Printer& out) {
  for (const RenewalItem& item : AllItems()) {
    if (item.IsKubeconfig()) continue;
    const std::string pending = PendingRenewalPath(item, env);
    auto data = env.fs.ReadFile(pending);
    if (!data) continue;
    auto key = PrivateKey::ParsePem(*data);
    auto cert = Certificate::ParsePem(*data);
    if (key && cert && cert->MatchesKey(*key)) {
      KKADM_RETURN_IF_ERROR(
          util::pki::WriteCertAndKey(env.fs, env.cert_dir(), item.base_name, *cert, *key));
      KKADM_RETURN_IF_ERROR(env.fs.Sync());
      out.Line("renew", "Completed the interrupted renewal of the " + item.long_name);
    }
    KKADM_RETURN_IF_ERROR(env.fs.Remove(pending));
    KKADM_RETURN_IF_ERROR(env.fs.Sync());
  }
  return Status();
}

}  // namespace kkadm::phases::certs
