// AES-256-GCM through OpenSSL's EVP interface (see crypto.h).
#include "app/util/crypto.h"

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <memory>

namespace kkadm::util {
namespace {

constexpr size_t kNonceSize = 12;
constexpr size_t kTagSize = 16;
constexpr size_t kKeySize = 32;

using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

const unsigned char* U(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}
unsigned char* U(std::string& s) { return reinterpret_cast<unsigned char*>(s.data()); }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<std::string> RandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(U(out), static_cast<int>(n)) != 1) return Internal("reading random bytes failed");
  return out;
}

std::string HexEncode(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

// Fetched once: OpenSSL 3 looks an algorithm up by name at every SHA256() call, which costs more
// than hashing a journal record or a fingerprint's inputs.
namespace {
const EVP_MD* Sha256Digest() {
  static EVP_MD* const sha256 = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
  return sha256 != nullptr ? sha256 : EVP_sha256();
}
}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  const bool digested =
      EVP_Digest(data.data(), data.size(), digest, nullptr, Sha256Digest(), nullptr) == 1;
  if (!digested) SHA256(U(data), data.size(), digest);
  return HexEncode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

struct Sha256::Context {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : context_(std::make_unique<Context>()) {
  EVP_DigestInit_ex(context_->ctx, Sha256Digest(), nullptr);
}

Sha256::~Sha256() = default;

void Sha256::Update(std::string_view data) {
  EVP_DigestUpdate(context_->ctx, data.data(), data.size());
}

std::string Sha256::Finish() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(context_->ctx, digest, &size);
  return std::string(reinterpret_cast<const char*>(digest), size);
}

Result<std::string> CreateCertificateKey() {
  auto bytes = RandomBytes(kKeySize);
  if (!bytes) return bytes.error();
  return HexEncode(*bytes);
}

Result<std::string> DecodeCertificateKey(std::string_view hex) {
  if (hex.size() != 2 * kKeySize) {
    return InvalidArgument("the certificate key must be 64 hexadecimal characters");
  }
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = HexValue(hex[i]), lo = HexValue(hex[i + 1]);
    if (hi < 0 || lo < 0) return InvalidArgument("the certificate key is not hexadecimal");
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

Result<std::string> EncryptBytes(std::string_view plain, std::string_view key) {
  if (key.size() != kKeySize) return InvalidArgument("AES-256 needs a 32-byte key");
  auto nonce = RandomBytes(kNonceSize);
  if (!nonce) return nonce.error();
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  std::string out = *nonce;
  out.resize(kNonceSize + plain.size() + kTagSize);
  int len = 0, final_len = 0;
  if (!ctx || EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, U(key), U(*nonce)) != 1 ||
      EVP_EncryptUpdate(ctx.get(), U(out) + kNonceSize, &len, U(plain),
                        static_cast<int>(plain.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), U(out) + kNonceSize + len, &final_len) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagSize,
                          U(out) + kNonceSize + plain.size()) != 1) {
    return Internal("AES-GCM encryption failed");
  }
  return out;
}

Result<std::string> DecryptBytes(std::string_view sealed, std::string_view key) {
  if (key.size() != kKeySize) return InvalidArgument("AES-256 needs a 32-byte key");
  if (sealed.size() < kNonceSize + kTagSize)
    return InvalidArgument("size of data is less than the nonce");
  const std::string_view nonce = sealed.substr(0, kNonceSize);
  const std::string_view body = sealed.substr(kNonceSize, sealed.size() - kNonceSize - kTagSize);
  std::string tag(sealed.substr(sealed.size() - kTagSize));
  CipherCtx ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  std::string out(body.size(), '\0');
  int len = 0, final_len = 0;
  if (!ctx || EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, U(key), U(nonce)) != 1 ||
      EVP_DecryptUpdate(ctx.get(), U(out), &len, U(body), static_cast<int>(body.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagSize, U(tag)) != 1) {
    return Internal("AES-GCM decryption failed");
  }
  if (EVP_DecryptFinal_ex(ctx.get(), U(out) + len, &final_len) != 1) {
    return InvalidArgument("cipher: message authentication failed");
  }
  return out;
}

}  // namespace kkadm::util
