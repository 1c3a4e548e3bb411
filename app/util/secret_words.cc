// RedactSecretWords: see secret_words.h.
#include "app/util/secret_words.h"

#include "app/util/ascii.h"
#include "app/util/bootstrap_token_syntax.h"

namespace kkadm::util {
namespace {

bool IsSecretWordCharacter(char c) { return IsLowerAlnum(c) || c == '.'; }

bool LooksSecret(std::string_view word) {
  return IsBootstrapToken(word) || (word.size() >= 64 && AllOf(word, IsLowerHexDigit));
}

}  // namespace

std::string RedactSecretWords(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    while (end < text.size() && IsSecretWordCharacter(text[end])) ++end;
    if (end == i) {
      out += text[i++];
      continue;
    }
    const std::string_view word = text.substr(i, end - i);
    const std::string_view core = word.substr(0, word.find_last_not_of('.') + 1);
    out +=
        LooksSecret(core) ? kRedacted + std::string(word.substr(core.size())) : std::string(word);
    i = end;
  }
  return out;
}

}  // namespace kkadm::util
