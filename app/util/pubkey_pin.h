// Public key pins of CA certificates (kubeadm's util/pubkeypin): "sha256:<hex>" of the SHA-256 of
// the certificate's DER SubjectPublicKeyInfo.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

// The pin of every certificate in a PEM bundle, in order; InvalidArgument when there is none.
Result<std::vector<std::string>> PinsOfPemBundle(std::string_view pem);

// The pin of the first certificate of `pem`.
Result<std::string> PinOfPemCertificate(std::string_view pem);

}  // namespace kkadm::util
