// SPKI SHA-256 pins (see pubkey_pin.h): kkadm's one computation of them.
#include "app/util/pubkey_pin.h"

#include <openssl/sha.h>

#include "app/util/crypto.h"
#include "app/util/pki/certificate.h"

namespace kkadm::util {

Result<std::vector<std::string>> PinsOfPemBundle(std::string_view pem) {
  auto certs = pki::Certificate::ParsePemBundle(pem);
  if (!certs) return certs.error();
  std::vector<std::string> pins;
  for (const pki::Certificate& cert : *certs) {
    // The DER SubjectPublicKeyInfo as the certificate holds it (Go's RawSubjectPublicKeyInfo), not
    // the key encoded again.
    const std::string spki = cert.PublicKeyDer();
    if (spki.empty()) return InvalidArgument("the certificate has no readable public key");
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(spki.data()), spki.size(), digest);
    pins.push_back("sha256:" +
                   HexEncode(std::string_view(reinterpret_cast<char*>(digest), sizeof digest)));
  }
  return pins;
}

Result<std::string> PinOfPemCertificate(std::string_view pem) {
  auto pins = PinsOfPemBundle(pem);
  if (!pins) return pins.error();
  return pins->front();
}

}  // namespace kkadm::util
