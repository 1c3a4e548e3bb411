// Issuing certificates the way kubeadm's pkiutil and client-go's certutil do: a self-signed CA and
// leaf certificates signed by a CA, with kubeadm's template (random serial, usages, SANs).
#pragma once

#include <string>
#include <vector>

#include "app/util/pki/certificate.h"
#include "app/util/pki/key.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

struct CertConfig {
  std::string common_name;
  std::vector<std::string> organizations;
  std::vector<std::string> dns_names;
  std::vector<std::string> ips;  // IPv4/IPv6 text
  std::vector<ExtKeyUsage> usages;
  bool is_ca = false;
  TimePoint not_before;
  TimePoint not_after;
};

// The subject kubeadm's certificates and CSRs carry: O (each) then CN, as Go's pkix.Name orders
// them, PrintableString where it can be.
Result<OsslPtr<X509_NAME>> SubjectName(const std::string& common_name,
                                       const std::vector<std::string>& organizations);
// DNS names then IPs, as Go writes a subjectAltName; InvalidArgument for an IP that does not
// parse.
Result<OsslPtr<GENERAL_NAMES>> SubjectAltNames(const std::vector<std::string>& dns,
                                               const std::vector<std::string>& ips);

// A self-signed CA for `key`: subject CN (+O), DNS SAN = CN (the config's SANs are ignored, as in
// client-go), KeyUsage DigitalSignature|KeyEncipherment|CertSign (critical), BasicConstraints
// CA:TRUE (critical), SubjectKeyIdentifier, the given validity, SHA-256 (SHA-384 for P-384).
// InvalidArgument when the CN is empty.
Result<Certificate> SelfSignCA(const CertConfig& config, const PrivateKey& key);

// A certificate for `subject_key`'s public half signed by `ca`/`ca_key`: subject CN (+O), the
// config's DNS and IP SANs (deduplicated, DNS sorted), KeyUsage DigitalSignature|KeyEncipherment
// (+CertSign when is_ca), critical; ExtKeyUsage from `usages`; BasicConstraints (critical, CA
// flag from is_ca); AuthorityKeyIdentifier from the CA's SubjectKeyIdentifier, when it has one.
// InvalidArgument for an empty CN, no usages on a leaf, or a SAN IP that does not parse;
// FailedPrecondition when `ca_key` does not belong to `ca`.
Result<Certificate> SignLeaf(const CertConfig& config, const PrivateKey& subject_key,
                             const Certificate& ca, const PrivateKey& ca_key);

}  // namespace kkadm::util::pki
