// Public key pins of CA certificates (kubeadm's util/pubkeypin): "sha256:<hex>" of the SHA-256 of
// the certificate's DER SubjectPublicKeyInfo, as the certificate holds it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

// The pin of every certificate in a PEM bundle, in order; InvalidArgument when there is none or a
// CERTIFICATE block does not parse (client-go's ParseCertsPEM, which kubeadm pins from).
Result<std::vector<std::string>> PinsOfPemBundle(std::string_view pem);

// The pin of the first certificate of `pem`.
Result<std::string> PinOfPemCertificate(std::string_view pem);

}  // namespace kkadm::util
