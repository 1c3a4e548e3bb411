// Fuzz target: a kkadm join token as pasted by a user (`kkadm join kk1.…`, `kkadm token inspect`).
// Beyond not crashing: a token that decodes encodes again, and that encoding decodes to the same
// fields.
#include "app/util/join_token.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

bool SameFields(const kkadm::util::JoinToken& a, const kkadm::util::JoinToken& b) {
  return a.endpoints == b.endpoints && a.bootstrap_token == b.bootstrap_token &&
         a.ca_cert_hashes == b.ca_cert_hashes && a.certificate_key == b.certificate_key;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = kkadm::fuzz::AsText(data, size);
  (void)kkadm::util::LooksLikeJoinToken(text);
  auto token = kkadm::util::DecodeJoinToken(text);
  if (!token) return 0;
  (void)kkadm::util::RedactedJoinToken(*token);
  auto encoded = kkadm::util::EncodeJoinToken(*token);
  kkadm::fuzz::Check(encoded.has_value(), "a decoded join token does not encode",
                     encoded ? "" : encoded.error().message());
  auto again = kkadm::util::DecodeJoinToken(*encoded);
  kkadm::fuzz::Check(again.has_value() && SameFields(*token, *again),
                     "a re-encoded join token does not decode to the same fields", *encoded);
  return 0;
}
