// What `certs check-expiration` reports (kubeadm's CertificateExpirationInfo, output API
// output.kubeadm.k8s.io/v1alpha3): each renewable certificate and each CA, when it expires, who
// signed it, whether its CA is external, or that it is missing; and kubeadm's two tables.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/phases/certs/renewal.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

struct ExpirationEntry {
  std::string name;
  std::optional<std::chrono::system_clock::time_point> expires;  // nullopt when missing
  std::string ca_name;                                           // empty for a CA
  bool externally_managed = false;
  bool missing = false;
};

struct ExpirationInfo {
  std::vector<ExpirationEntry> certificates;
  std::vector<ExpirationEntry> authorities;
};

// Reads every item of RenewalItems and RenewalAuthorities. A missing file is an entry marked
// missing; a file that does not hold what it should (a kubeconfig without embedded certificates,
// an unparsable certificate) fails the whole report, as in kubeadm. Reads only.
Result<ExpirationInfo> ReadExpirationInfo(const RenewalEnv& env);

// Seconds from `now` to the expiry, truncated toward zero (negative once expired).
std::int64_t ResidualSeconds(const ExpirationEntry& entry,
                             std::chrono::system_clock::time_point now);

// kubeadm's text: the certificates table (CERTIFICATE, EXPIRES, RESIDUAL TIME, CERTIFICATE
// AUTHORITY, EXTERNALLY MANAGED), a blank line, the CA table; dates as "Jan 02, 2006 15:04 UTC",
// residual times as ShortHumanDuration, "!MISSING! <name>" rows with empty cells.
std::string ExpirationText(const ExpirationInfo& info, std::chrono::system_clock::time_point now);

// The CertificateExpirationInfo document, keys in kubeadm's order (json prints it so; yaml sorts).
nlohmann::ordered_json ExpirationDocument(const ExpirationInfo& info,
                                          std::chrono::system_clock::time_point now);

// kubeadm's users find out when kubelet.conf expires (kubernetes/kubeadm#2054): neither renew nor
// check-expiration covers it, because the kubelet rotates its own client certificate, which
// kubelet.conf then names (/var/lib/kubelet/pki/kubelet-client-current.pem). A warning when
// <kubeconfig dir>/kubelet.conf exists and its current user does not point there (it embeds a
// certificate or names another file), with the embedded certificate's expiry when it has one;
// nullopt otherwise, also when the file does not parse (check-expiration is not about it).
std::optional<std::string> KubeletRotationWarning(const RenewalEnv& env,
                                                  std::chrono::system_clock::time_point now);

}  // namespace kkadm::phases::certs
