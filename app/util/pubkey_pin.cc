// SPKI SHA-256 pins through OpenSSL (see pubkey_pin.h).
#include "app/util/pubkey_pin.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#include <memory>

#include "app/util/crypto.h"

namespace kkadm::util {
namespace {

Result<std::string> PinOf(X509* cert) {
  EVP_PKEY* key = X509_get0_pubkey(cert);
  unsigned char* der = nullptr;
  const int len = key ? i2d_PUBKEY(key, &der) : -1;
  if (len <= 0) return InvalidArgument("the certificate has no readable public key");
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(der, static_cast<size_t>(len), digest);
  OPENSSL_free(der);
  return "sha256:" + HexEncode(std::string_view(reinterpret_cast<char*>(digest), sizeof digest));
}

}  // namespace

Result<std::vector<std::string>> PinsOfPemBundle(std::string_view pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                BIO_free);
  std::vector<std::string> pins;
  while (bio) {
    X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
    if (cert == nullptr) break;
    auto pin = PinOf(cert);
    X509_free(cert);
    if (!pin) return pin.error();
    pins.push_back(*pin);
  }
  if (pins.empty()) return InvalidArgument("no certificate found in PEM data");
  return pins;
}

Result<std::string> PinOfPemCertificate(std::string_view pem) {
  auto pins = PinsOfPemBundle(pem);
  if (!pins) return pins.error();
  return pins->front();
}

}  // namespace kkadm::util
