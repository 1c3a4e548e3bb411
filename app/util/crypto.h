// Symmetric encryption of the certificates kubeadm shares through the kubeadm-certs Secret
// (kubeadm's util/crypto: AES-256-GCM, output = 12-byte nonce || ciphertext || 16-byte tag).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// `n` bytes from OpenSSL's CSPRNG; Internal if it fails.
Result<std::string> RandomBytes(size_t n);

// A fresh certificate key: 32 random bytes as 64 lower-case hex characters.
Result<std::string> CreateCertificateKey();

// The 32-byte AES key a certificate key (64 hex characters) stands for; InvalidArgument otherwise.
Result<std::string> DecodeCertificateKey(std::string_view hex);

// AES-256-GCM with a fresh random 12-byte nonce; `key` must be 32 bytes.
Result<std::string> EncryptBytes(std::string_view plain, std::string_view key);
// The inverse; InvalidArgument when the data is too short or fails authentication.
Result<std::string> DecryptBytes(std::string_view sealed, std::string_view key);

std::string HexEncode(std::string_view bytes);

// The SHA-256 of `data` as 64 lower-case hex characters.
std::string Sha256Hex(std::string_view data);

// SHA-256 fed piece by piece, for data never held whole (an etcd snapshot).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void Update(std::string_view data);
  std::string Finish();  // the 32 raw bytes; Update no more after it

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

}  // namespace kkadm::util
