// Expiry of the node's certificates, read and printed as kubeadm's check-expiration does.
#include "app/phases/certs/expiration.h"

#include <fmt/format.h>

#include <ctime>

#include "app/util/duration.h"
#include "app/util/kubeconfig.h"
#include "app/util/pki/pki_files.h"
#include "app/util/rfc3339.h"
#include "app/util/tab_writer.h"

namespace kkadm::phases::certs {
namespace {

using TimePoint = std::chrono::system_clock::time_point;

// Go's layout "Jan 02, 2006 15:04 MST" of a UTC time.
std::string ExpiryDate(TimePoint time) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[64];
  std::strftime(text, sizeof text, "%b %d, %Y %H:%M UTC", &tm);
  return text;
}

std::string ResidualText(const ExpirationEntry& entry, TimePoint now) {
  return util::ShortHumanDuration(std::chrono::seconds(ResidualSeconds(entry, now)));
}

// Go's "%-8v" of "yes"/"no".
std::string YesNo(bool yes) { return yes ? "yes     " : "no      "; }

nlohmann::ordered_json EntryDocument(const ExpirationEntry& entry, TimePoint now) {
  nlohmann::ordered_json doc;
  doc["name"] = entry.name;
  doc["expirationDate"] =
      entry.expires ? nlohmann::ordered_json(util::FormatRfc3339(*entry.expires)) : nullptr;
  doc["residualTime"] = entry.expires ? ResidualSeconds(entry, now) : 0;
  doc["externallyManaged"] = entry.externally_managed;
  if (!entry.ca_name.empty()) doc["caName"] = entry.ca_name;
  doc["missing"] = entry.missing;
  return doc;
}

}  // namespace

Result<ExpirationInfo> ReadExpirationInfo(const RenewalEnv& env) {
  ExpirationInfo info;
  for (const RenewalItem& item : RenewalItems(env.external_etcd())) {
    ExpirationEntry entry{.name = item.name, .ca_name = item.ca_name};
    if (!env.fs.Exists(ItemPath(item, env))) {
      info.certificates.push_back({.name = item.name, .missing = true});
      continue;
    }
    entry.externally_managed = IsExternallyManaged(item.ca_base, env);
    auto cert = ReadItemCertificate(item, env);
    if (!cert) return cert.error();
    entry.expires = cert->NotAfter();
    info.certificates.push_back(std::move(entry));
  }
  for (const CertSpec& ca : RenewalAuthorities(env.external_etcd())) {
    const std::string path = util::pki::CertPath(env.cert_dir(), ca.base_name);
    if (!env.fs.Exists(path)) {
      info.authorities.push_back({.name = ca.name, .missing = true});
      continue;
    }
    auto cert = util::pki::LoadCert(env.fs, path);
    if (!cert) return cert.error();
    info.authorities.push_back({.name = ca.name,
                                .expires = cert->NotAfter(),
                                .externally_managed = IsExternallyManaged(ca.base_name, env)});
  }
  return info;
}

std::int64_t ResidualSeconds(const ExpirationEntry& entry, TimePoint now) {
  if (!entry.expires) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(*entry.expires - now).count();
}

std::string ExpirationText(const ExpirationInfo& info, TimePoint now) {
  std::vector<std::vector<std::string>> certs = {
      {"CERTIFICATE", "EXPIRES", "RESIDUAL TIME", "CERTIFICATE AUTHORITY", "EXTERNALLY MANAGED"}};
  for (const ExpirationEntry& e : info.certificates) {
    if (e.missing) {
      certs.push_back({"!MISSING! " + e.name, "", "", "", ""});
      continue;
    }
    certs.push_back({e.name, ExpiryDate(*e.expires), ResidualText(e, now), e.ca_name,
                     YesNo(e.externally_managed)});
  }
  std::vector<std::vector<std::string>> cas = {
      {"CERTIFICATE AUTHORITY", "EXPIRES", "RESIDUAL TIME", "EXTERNALLY MANAGED"}};
  for (const ExpirationEntry& e : info.authorities) {
    if (e.missing) {
      cas.push_back({"!MISSING! " + e.name, "", "", ""});
      continue;
    }
    cas.push_back(
        {e.name, ExpiryDate(*e.expires), ResidualText(e, now), YesNo(e.externally_managed)});
  }
  return util::TabWrite(certs) + "\n" + util::TabWrite(cas);
}

nlohmann::ordered_json ExpirationDocument(const ExpirationInfo& info, TimePoint now) {
  nlohmann::ordered_json doc;
  doc["kind"] = "CertificateExpirationInfo";
  doc["apiVersion"] = "output.kubeadm.k8s.io/v1alpha3";
  doc["certificates"] = nlohmann::ordered_json::array();
  for (const ExpirationEntry& e : info.certificates) {
    doc["certificates"].push_back(EntryDocument(e, now));
  }
  doc["certificateAuthorities"] = nlohmann::ordered_json::array();
  for (const ExpirationEntry& e : info.authorities) {
    doc["certificateAuthorities"].push_back(EntryDocument(e, now));
  }
  return doc;
}

std::optional<std::string> KubeletRotationWarning(const RenewalEnv& env, TimePoint now) {
  constexpr char kRotated[] = "/var/lib/kubelet/pki/kubelet-client-current.pem";
  const std::string path = env.kubeconfig_dir + "/kubelet.conf";
  auto data = env.fs.ReadFile(path);
  if (!data) return std::nullopt;
  auto config = util::DecodeKubeconfig(*data);
  if (!config || config->CurrentUser() == nullptr) return std::nullopt;
  const util::KubeconfigUser& user = *config->CurrentUser();
  if (user.client_certificate == kRotated && user.client_key == kRotated) return std::nullopt;
  std::string expiry;
  if (auto cert = util::pki::Certificate::ParsePem(user.client_certificate_data)) {
    ExpirationEntry entry{.name = "kubelet.conf", .expires = cert->NotAfter()};
    expiry = fmt::format(" Its embedded client certificate expires {} ({}).",
                         ExpiryDate(cert->NotAfter()), ResidualText(entry, now));
  }
  return fmt::format(
      "WARNING: {} does not point at {}: the kubelet's client certificate is not rotated, and "
      "neither kkadm nor kubeadm renews it.{} See "
      "https://kubernetes.io/docs/tasks/administer-cluster/kubeadm/kubeadm-certs/"
      "#kubelet-client-cert",
      path, kRotated, expiry);
}

}  // namespace kkadm::phases::certs
