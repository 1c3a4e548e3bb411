// The kkadm join token: everything `kkadm join` needs in one shell-safe argument
// (docs/join-token.md).
//
//   kk1.<base64url(fields || checksum)>
//
// fields are tag/length/value records (endpoint, bootstrap token, CA pin, certificate key); the
// checksum is the first 4 bytes of SHA-256("kk1." || fields), so a truncated or mistyped token is
// rejected here, before any network traffic.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

inline constexpr std::string_view kJoinTokenPrefix = "kk1.";
// A token with one endpoint is about 120 characters, with a certificate key 170; a longer text
// is refused before it is decoded.
inline constexpr std::size_t kMaxJoinTokenLength = 4096;

struct JoinToken {
  std::vector<std::string> endpoints;  // "host:port" / "[v6]:port" of the API server(s), in order
  std::string bootstrap_token;         // "<id>.<secret>"
  std::vector<std::string>
      ca_cert_hashes;           // "sha256:<64 lower-case hex>" SPKI pins of the cluster CA
  std::string certificate_key;  // 64 hex characters for a control-plane join, else empty
};

// True when `text` claims to be a join token (has the prefix); it may still fail to decode.
bool LooksLikeJoinToken(std::string_view text);

// The token's text. InvalidArgument when a field is malformed: no endpoint, an endpoint without a
// port or longer than 255 bytes, a bootstrap token not matching [a-z0-9]{6}\.[a-z0-9]{16}, no pin
// or a pin not "sha256:<64 hex>", a certificate key not 64 hex characters.
Result<std::string> EncodeJoinToken(const JoinToken& token);

// The inverse. InvalidArgument, never echoing the token (it holds a secret), when the prefix, the
// length, the alphabet, the checksum or a field is wrong; an endpoint named in the message is
// quoted with its non-printable characters escaped.
Result<JoinToken> DecodeJoinToken(std::string_view text);

// The token with the bootstrap token's secret and the certificate key replaced by "<redacted>":
// for logs and `kkadm token inspect`.
JoinToken RedactedJoinToken(JoinToken token);

}  // namespace kkadm::util
