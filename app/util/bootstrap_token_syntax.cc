// Bootstrap token and group syntax, and token generation (see bootstrap_token_syntax.h).
#include "app/util/bootstrap_token_syntax.h"

#include "app/util/ascii.h"
#include "app/util/crypto.h"

namespace kkadm::util {
namespace {

// `n` characters of [0-9a-z].
Result<std::string> RandomTokenChars(size_t n) {
  constexpr std::string_view kCharset = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string out;
  while (out.size() < n) {
    auto bytes = RandomBytes(n);
    if (!bytes) return bytes.error();
    for (unsigned char b : *bytes) {
      // 252 = 7 * 36: dropping larger bytes keeps every character equally likely.
      if (b >= 252 || out.size() == n) continue;
      out.push_back(kCharset[b % kCharset.size()]);
    }
  }
  return out;
}

}  // namespace

bool IsBootstrapToken(std::string_view token) {
  return token.size() == 23 && token[6] == '.' && IsBootstrapTokenId(token.substr(0, 6)) &&
         AllOf(token.substr(7), IsLowerAlnum);
}

std::optional<BootstrapTokenParts> SplitBootstrapToken(std::string_view token) {
  if (!IsBootstrapToken(token)) return std::nullopt;
  return BootstrapTokenParts{std::string(token.substr(0, 6)), std::string(token.substr(7))};
}

bool IsBootstrapTokenId(std::string_view id) { return id.size() == 6 && AllOf(id, IsLowerAlnum); }

bool IsBootstrapGroupName(std::string_view group) {
  constexpr std::string_view kPrefix = "system:bootstrappers:";
  if (group.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view rest = group.substr(kPrefix.size());
  auto in_group = [](char c) { return IsLowerAlnum(c) || c == ':' || c == '-'; };
  return !rest.empty() && rest.size() <= 256 && AllOf(rest, in_group) && IsLowerAlnum(rest.back());
}

Result<std::string> GenerateBootstrapToken() {
  auto chars = RandomTokenChars(22);
  if (!chars) return chars.error();
  return chars->substr(0, 6) + "." + chars->substr(6);
}

}  // namespace kkadm::util
