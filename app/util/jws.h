// Detached JWS signatures of the cluster-info kubeconfig (cluster-bootstrap's token/jws): HS256
// keyed with a bootstrap token's secret, header {"alg":"HS256","kid":"<token-id>"}.
#pragma once

#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

// base64url without padding (RFC 7515).
std::string Base64UrlEncode(std::string_view bytes);

// The inverse; InvalidArgument for any character outside [A-Za-z0-9_-], padding, or a bad length.
Result<std::string> Base64UrlDecode(std::string_view text);

// "<b64url(header)>..<b64url(HMAC-SHA256)>": the compact JWS of `content` with the payload dropped.
Result<std::string> ComputeDetachedSignature(std::string_view content, const std::string& token_id,
                                             std::string_view token_secret);

// True when `signature` is the detached signature of `content` under the token.
bool DetachedSignatureMatches(std::string_view content, std::string_view signature,
                              const std::string& token_id, std::string_view token_secret);

}  // namespace kkadm::util
