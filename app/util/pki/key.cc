// Key generation, PEM encoding and parsing over OpenSSL 3's EVP API.
#include "app/util/pki/key.h"

#include <openssl/pem.h>
#include <openssl/rsa.h>

namespace kkadm::util::pki {
namespace {

// Refuses to prompt for a pass phrase: an encrypted key is simply an error.
int NoPassphrase(char*, int, int, void*) { return -1; }

Result<PrivateKey> Failed(std::string_view what) { return OpenSslError(what); }

}  // namespace

const char* KeyTypeName(KeyType type) {
  switch (type) {
    case KeyType::kRsa2048:
      return "RSA-2048";
    case KeyType::kRsa3072:
      return "RSA-3072";
    case KeyType::kRsa4096:
      return "RSA-4096";
    case KeyType::kEcdsaP256:
      return "ECDSA-P256";
    case KeyType::kEcdsaP384:
      return "ECDSA-P384";
  }
  return "unknown";
}

bool IsRsaType(KeyType type) {
  return type == KeyType::kRsa2048 || type == KeyType::kRsa3072 || type == KeyType::kRsa4096;
}

Result<PrivateKey> PrivateKey::Generate(KeyType type) {
  EVP_PKEY* raw = nullptr;
  switch (type) {
    case KeyType::kRsa2048:
      raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{2048});
      break;
    case KeyType::kRsa3072:
      raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{3072});
      break;
    case KeyType::kRsa4096:
      raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{4096});
      break;
    case KeyType::kEcdsaP256:
      raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
      break;
    case KeyType::kEcdsaP384:
      raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-384");
      break;
  }
  if (raw == nullptr) return Failed(std::string("generating ") + KeyTypeName(type) + " key");
  return PrivateKey(OsslPtr<EVP_PKEY>(raw));
}

Result<PrivateKey> PrivateKey::ParsePem(std::string_view pem) {
  ClearOpenSslErrors();
  auto bio = MemoryBio(pem);
  OsslPtr<EVP_PKEY> key(PEM_read_bio_PrivateKey(bio.get(), nullptr, NoPassphrase, nullptr));
  if (!key) return OpenSslError("data does not contain a valid RSA or ECDSA private key", true);
  if (!EVP_PKEY_is_a(key.get(), "RSA") && !EVP_PKEY_is_a(key.get(), "EC")) {
    return InvalidArgument("the private key is neither in RSA nor ECDSA format");
  }
  return PrivateKey(std::move(key));
}

Result<std::string> PrivateKey::ToPem() const {
  OsslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  // "Traditional" is the type-specific structure: PKCS#1 for RSA, SEC1 for EC.
  if (!bio || PEM_write_bio_PrivateKey_traditional(bio.get(), key_.get(), nullptr, nullptr, 0,
                                                   nullptr, nullptr) != 1) {
    return OpenSslError("encoding private key");
  }
  return BioContents(bio.get());
}

Result<std::string> PrivateKey::PublicKeyPem() const {
  OsslPtr<BIO> bio(BIO_new(BIO_s_mem()));
  if (!bio || PEM_write_bio_PUBKEY(bio.get(), key_.get()) != 1) {
    return OpenSslError("encoding public key");
  }
  return BioContents(bio.get());
}

Result<std::string> PrivateKey::PublicKeyDer() const {
  unsigned char* der = nullptr;
  int len = i2d_PUBKEY(key_.get(), &der);
  if (len <= 0) return OpenSslError("encoding public key");
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(len));
  OPENSSL_free(der);
  return out;
}

bool PrivateKey::IsRsa() const { return EVP_PKEY_is_a(key_.get(), "RSA") == 1; }
bool PrivateKey::IsEcdsa() const { return EVP_PKEY_is_a(key_.get(), "EC") == 1; }
int PrivateKey::Bits() const { return EVP_PKEY_get_bits(key_.get()); }

PrivateKey PrivateKey::Share() const {
  EVP_PKEY_up_ref(key_.get());
  return PrivateKey(OsslPtr<EVP_PKEY>(key_.get()));
}

}  // namespace kkadm::util::pki
