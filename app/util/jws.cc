// HS256 detached JWS (see jws.h).
#include "app/util/jws.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "app/util/kubeconfig.h"

namespace kkadm::util {

std::string Base64UrlEncode(std::string_view bytes) {
  std::string out = Base64Encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) {
    if (c == '+') c = '-';
    if (c == '/') c = '_';
  }
  return out;
}

Result<std::string> Base64UrlDecode(std::string_view text) {
  if (text.size() % 4 == 1) return InvalidArgument("illegal base64url data: bad length");
  std::string standard(text);
  for (char& c : standard) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (c == '-')
      c = '+';
    else if (c == '_')
      c = '/';
    else if (!plain)
      return InvalidArgument("illegal base64url data: unexpected character");
  }
  standard.append((4 - standard.size() % 4) % 4, '=');
  return Base64Decode(standard);
}

Result<std::string> ComputeDetachedSignature(std::string_view content, const std::string& token_id,
                                             std::string_view token_secret) {
  // Keys in sorted order without spaces, as go-jose marshals the protected header.
  const std::string header = Base64UrlEncode("{\"alg\":\"HS256\",\"kid\":\"" + token_id + "\"}");
  const std::string signing_input = header + "." + Base64UrlEncode(content);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int mac_len = 0;
  if (HMAC(EVP_sha256(), token_secret.data(), static_cast<int>(token_secret.size()),
           reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size(), mac,
           &mac_len) == nullptr) {
    return Internal("computing the HMAC failed");
  }
  return header + ".." +
         Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(mac), mac_len));
}

bool DetachedSignatureMatches(std::string_view content, std::string_view signature,
                              const std::string& token_id, std::string_view token_secret) {
  auto expected = ComputeDetachedSignature(content, token_id, token_secret);
  return expected && expected->size() == signature.size() &&
         CRYPTO_memcmp(expected->data(), signature.data(), signature.size()) == 0;
}

}  // namespace kkadm::util
