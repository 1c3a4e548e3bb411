// Renewing the certificates of a running node (kubeadm's phases/certs/renewal): the items
// `certs renew` and `certs check-expiration` know, reading the certificate each holds, and
// re-issuing it from the local CA with the subject, SANs and usages it has, a new key and the
// configured validity. CAs are listed, never renewed. Knows nothing of the command line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/config/types.h"
#include "app/phases/certs/cert_list.h"
#include "app/util/clock.h"
#include "app/util/file_system.h"
#include "app/util/pki/certificate.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::certs {

// A certificate `certs renew` re-issues: a leaf of the PKI ("apiserver") or the client
// certificate embedded in a kubeconfig file ("admin.conf").
struct RenewalItem {
  std::string name;
  std::string long_name;  // "certificate for serving the Kubernetes API"
  std::string ca_name;    // "ca", "etcd-ca", "front-proxy-ca"
  std::string ca_base;    // the CA's file base: "ca", "etcd/ca", "front-proxy-ca"
  std::string base_name;  // the leaf's file base ("etcd/server"); empty for a kubeconfig
  bool IsKubeconfig() const { return base_name.empty(); }
};

// kubeadm's 11 names sorted (admin.conf, apiserver, ..., super-admin.conf); without the etcd
// leaves and apiserver-etcd-client when `external_etcd`.
std::vector<RenewalItem> RenewalItems(bool external_etcd);
// The CAs, sorted by name (ca, etcd-ca, front-proxy-ca); without etcd-ca when `external_etcd`.
std::vector<CertSpec> RenewalAuthorities(bool external_etcd);
// The item named `name` among all 11, or nullopt.
std::optional<RenewalItem> FindRenewalItem(std::string_view name);

struct RenewalEnv {
  const config::ClusterConfiguration& cluster;
  util::FileSystem& fs;
  util::Clock& clock;
  std::string kubeconfig_dir = "/etc/kubernetes";

  const std::string& cert_dir() const { return cluster.certificates_dir; }
  bool external_etcd() const { return cluster.etcd.external.has_value(); }
};

// The file an item lives in: "<cert dir>/<base>.crt" or "<kubeconfig dir>/<name>".
std::string ItemPath(const RenewalItem& item, const RenewalEnv& env);
// kubeadm's "externally managed": the CA's certificate is there and its key is not.
bool IsExternallyManaged(const std::string& ca_base, const RenewalEnv& env);

// The certificate the item holds. For a kubeconfig: the client certificate of its current
// context's user, which must be embedded, as must the cluster's CA (kubeadm's errors: "kubeConfig
// file <path> does not have an embedded client certificate", ...). Errors name the file.
Result<util::pki::Certificate> ReadItemCertificate(const RenewalItem& item, const RenewalEnv& env);

enum class RenewOutcome { kRenewed, kMissing, kExternalCA };

// Re-issues the item's certificate with its CA's key: the existing certificate's CN, O, DNS and IP
// SANs and extended key usages; a new key of the configured encryptionAlgorithm; NotBefore 5
// minutes back, NotAfter now + certificateValidityPeriod. A kubeconfig keeps everything but its
// client certificate and key, and gets the CA on disk embedded. kMissing when the item's file is
// absent, kExternalCA when its CA has no key; nothing is written then.
// A leaf's key and certificate are first written together to "<dir>/.<file>.kkadm-renewal" (0600);
// only then are the key and the certificate replaced, each atomically, and that file removed.
// Killed between the two, the pair is completed by FinishInterruptedRenewals.
Result<RenewOutcome> RenewItem(const RenewalItem& item, const RenewalEnv& env);

// The file that holds a leaf's new key and certificate while they replace the old ones.
std::string PendingRenewalPath(const RenewalItem& item, const RenewalEnv& env);

// Completes every renewal a killed run left half done: the key and certificate of each pending
// file are written and the file removed, saying so ("[renew] Completed the interrupted renewal
// of ..."). A pending file whose key does not match its certificate is removed unused.
Status FinishInterruptedRenewals(const RenewalEnv& env, util::Printer& out);

}  // namespace kkadm::phases::certs
