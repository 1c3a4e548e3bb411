// Secrets in free text: an error message may quote a bootstrap token or a certificate key that
// the code writing it did not know was one. The journal's records and the progress events both
// redact such words before they leave the process.
#pragma once

#include <string>
#include <string_view>

namespace kkadm::util {

// What a secret is replaced by, in events and in the journal.
inline constexpr const char* kRedacted = "<redacted>";

// `text` with every word that is a bootstrap token ("abcdef.0123456789abcdef") or looks like a
// certificate key (64 or more lower-case hex digits) replaced by kRedacted. A full stop that ends
// a sentence is not part of the word before it.
std::string RedactSecretWords(std::string_view text);

}  // namespace kkadm::util
