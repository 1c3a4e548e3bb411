// The kkadm join token codec (see join_token.h and docs/join-token.md).
#include "app/util/join_token.h"

#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "app/util/bootstrap_token_syntax.h"
#include "app/util/crypto.h"
#include "app/util/jws.h"
#include "app/util/net_rules.h"
#include "app/util/printable.h"

namespace kkadm::util {
namespace {

enum Tag : uint8_t {
  kTagEndpoint = 1,
  kTagBootstrapToken = 2,
  kTagCaCertHash = 3,
  kTagCertificateKey = 4,
};

constexpr size_t kChecksumSize = 4;
constexpr std::string_view kPinPrefix = "sha256:";

Status TokenError(std::string_view what) {
  return InvalidArgument(std::string("invalid join token: ") + std::string(what));
}

// 64 hex characters to 32 bytes; empty on any other input.
std::string HexToBytes(std::string_view hex) {
  if (hex.size() != 64) return {};
  std::string bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const auto nibble = [](char c) -> int {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    const int high = nibble(hex[i]);
    const int low = nibble(hex[i + 1]);
    if (high < 0 || low < 0) return {};
    bytes += static_cast<char>(high * 16 + low);
  }
  return bytes;
}

// A decoded token's checksum is no signature: anyone can make one whose endpoint holds terminal
// escapes, so the endpoint is quoted, escaped, in the message.
Status CheckEndpoint(std::string_view endpoint) {
  const bool printable = std::all_of(endpoint.begin(), endpoint.end(), [](char c) {
    return std::isgraph(static_cast<unsigned char>(c)) != 0;
  });
  if (!printable)
    return TokenError("endpoint " + Quote(endpoint) + " has non-printable characters");
  auto host_port = ParseHostPort(endpoint);
  if (!host_port || host_port->host.empty() || host_port->port.empty() || endpoint.size() > 255) {
    return TokenError("endpoint " + Quote(endpoint) + " is not host:port");
  }
  return Status::Ok();
}

std::string Checksum(std::string_view fields) {
  std::string input(kJoinTokenPrefix);
  input += fields;
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(input.data()), input.size(), digest);
  return std::string(reinterpret_cast<const char*>(digest), kChecksumSize);
}

void AppendField(std::string& out, Tag tag, std::string_view value) {
  out += static_cast<char>(tag);
  out += static_cast<char>(value.size());
  out += value;
}

// Checks `token` and returns its fields, without the checksum.
Result<std::string> EncodeFields(const JoinToken& token) {
  std::string fields;
  if (token.endpoints.empty()) return TokenError("no API server endpoint");
  for (const std::string& endpoint : token.endpoints) {
    KKADM_RETURN_IF_ERROR(CheckEndpoint(endpoint));
    AppendField(fields, kTagEndpoint, endpoint);
  }
  if (!IsBootstrapToken(token.bootstrap_token)) {
    return TokenError("the bootstrap token does not match [a-z0-9]{6}.[a-z0-9]{16}");
  }
  AppendField(fields, kTagBootstrapToken, token.bootstrap_token);
  if (token.ca_cert_hashes.empty()) return TokenError("no CA certificate hash");
  for (const std::string& pin : token.ca_cert_hashes) {
    std::string digest =
        pin.rfind(kPinPrefix, 0) == 0 ? HexToBytes(pin.substr(kPinPrefix.size())) : "";
    if (digest.empty())
      return TokenError("CA certificate hash " + Quote(pin) + " is not sha256:<64 hex>");
    AppendField(fields, kTagCaCertHash, digest);
  }
  if (!token.certificate_key.empty()) {
    std::string key = HexToBytes(token.certificate_key);
    if (key.empty()) return TokenError("the certificate key is not 64 hex characters");
    AppendField(fields, kTagCertificateKey, key);
  }
  return fields;
}

Status DecodeField(Tag tag, std::string_view value, JoinToken& token) {
  switch (tag) {
    case kTagEndpoint:
      KKADM_RETURN_IF_ERROR(CheckEndpoint(value));
      token.endpoints.emplace_back(value);
      return Status::Ok();
    case kTagBootstrapToken:
      if (!token.bootstrap_token.empty()) return TokenError("more than one bootstrap token");
      if (!IsBootstrapToken(value)) return TokenError("malformed bootstrap token");
      token.bootstrap_token = std::string(value);
      return Status::Ok();
    case kTagCaCertHash:
      if (value.size() != SHA256_DIGEST_LENGTH) return TokenError("malformed CA certificate hash");
      token.ca_cert_hashes.push_back(std::string(kPinPrefix) + HexEncode(value));
      return Status::Ok();
    case kTagCertificateKey:
      if (!token.certificate_key.empty()) return TokenError("more than one certificate key");
      if (value.size() != 32) return TokenError("malformed certificate key");
      token.certificate_key = HexEncode(value);
      return Status::Ok();
  }
  return TokenError("unknown field " + std::to_string(static_cast<int>(tag)) +
                    " (a newer kkadm made it?)");
}

}  // namespace

bool LooksLikeJoinToken(std::string_view text) { return text.rfind(kJoinTokenPrefix, 0) == 0; }

Result<std::string> EncodeJoinToken(const JoinToken& token) {
  auto fields = EncodeFields(token);
  if (!fields) return fields.error();
  return std::string(kJoinTokenPrefix) + Base64UrlEncode(*fields + Checksum(*fields));
}

Result<JoinToken> DecodeJoinToken(std::string_view text) {
  if (!LooksLikeJoinToken(text)) {
    return TokenError("it does not start with \"" + std::string(kJoinTokenPrefix) + "\"");
  }
  if (text.size() > kMaxJoinTokenLength) {
    return TokenError("it is longer than " + std::to_string(kMaxJoinTokenLength) + " characters");
  }
  const std::string_view body = text.substr(kJoinTokenPrefix.size());
  auto bytes = Base64UrlDecode(body);
  // Re-encoding catches a typo in the last character's unused low bits.
  if (!bytes || bytes->size() <= kChecksumSize || Base64UrlEncode(*bytes) != body) {
    return TokenError("it is truncated or has characters that do not belong in it");
  }
  const std::string_view all(*bytes);
  const std::string_view fields = all.substr(0, all.size() - kChecksumSize);
  if (Checksum(fields) != all.substr(fields.size())) {
    return TokenError("checksum mismatch: the token is truncated or mistyped");
  }
  JoinToken token;
  for (size_t at = 0; at < fields.size();) {
    if (fields.size() - at < 2 || fields.size() - at - 2 < static_cast<uint8_t>(fields[at + 1])) {
      return TokenError("a field runs past the end of the token");
    }
    const auto tag = static_cast<Tag>(fields[at]);
    const size_t length = static_cast<uint8_t>(fields[at + 1]);
    KKADM_RETURN_IF_ERROR(DecodeField(tag, fields.substr(at + 2, length), token));
    at += 2 + length;
  }
  if (token.endpoints.empty()) return TokenError("no API server endpoint");
  if (token.bootstrap_token.empty()) return TokenError("no bootstrap token");
  if (token.ca_cert_hashes.empty()) return TokenError("no CA certificate hash");
  return token;
}

JoinToken RedactedJoinToken(JoinToken token) {
  if (token.bootstrap_token.size() > 7)
    token.bootstrap_token = token.bootstrap_token.substr(0, 7) + "<redacted>";
  if (!token.certificate_key.empty()) token.certificate_key = "<redacted>";
  return token;
}

}  // namespace kkadm::util
