// PrivateKey: an RSA or ECDSA key pair over OpenSSL 3, generated or parsed from PEM, written as
// Go's keyutil writes keys (PKCS#1 "RSA PRIVATE KEY", SEC1 "EC PRIVATE KEY", PKIX "PUBLIC KEY").
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "app/util/pki/openssl_util.h"
#include "app/util/status.h"

namespace kkadm::util::pki {

enum class KeyType { kRsa2048, kRsa3072, kRsa4096, kEcdsaP256, kEcdsaP384 };

// "RSA-2048", "ECDSA-P256", ... (the v1beta4 encryptionAlgorithm spelling).
const char* KeyTypeName(KeyType type);
bool IsRsaType(KeyType type);

class PrivateKey {
 public:
  // A fresh key from the OS's randomness. Safe to call from several threads at once.
  static Result<PrivateKey> Generate(KeyType type);

  // The first private key block of `pem`: PKCS#1, SEC1 or PKCS#8 (other blocks, like
  // "EC PARAMETERS", are skipped). Encrypted keys and key types other than RSA/EC are
  // InvalidArgument; OpenSSL never prompts for a pass phrase.
  static Result<PrivateKey> ParsePem(std::string_view pem);

  // PKCS#1 for RSA, SEC1 for EC (what `kubeadm` writes to *.key).
  Result<std::string> ToPem() const;
  // PEM "PUBLIC KEY" (PKIX SubjectPublicKeyInfo), as in sa.pub.
  Result<std::string> PublicKeyPem() const;
  // DER SubjectPublicKeyInfo.
  Result<std::string> PublicKeyDer() const;

  bool IsRsa() const;
  bool IsEcdsa() const;
  // Bits of the modulus (RSA) or of the curve order (EC).
  int Bits() const;

  // Another owner of the same key (OpenSSL reference count).
  PrivateKey Share() const;

  EVP_PKEY* get() const { return key_.get(); }

 private:
  explicit PrivateKey(OsslPtr<EVP_PKEY> key) : key_(std::move(key)) {}
  OsslPtr<EVP_PKEY> key_;
};

}  // namespace kkadm::util::pki
