// Certificate signing requests as kubeadm's pkiutil.NewCSR makes them for an external CA: the
// subject (O, CN) and the DNS and IP SANs of a certificate's configuration, no usages (the CA
// sets them), signed by the new key.
#pragma once

#include <string>

#include "app/util/pki/key.h"
#include "app/util/pki/sign.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

// PEM "CERTIFICATE REQUEST" for `config` (its validity, usages and CA flag are ignored), signed
// by `key` with SHA-256 (SHA-384 for P-384). InvalidArgument for an empty CN or a SAN IP that
// does not parse.
Result<std::string> CreateCsrPem(const CertConfig& config, const PrivateKey& key);

}  // namespace kkadm::util::pki
