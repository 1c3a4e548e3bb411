// Bootstrap token and group syntax (see bootstrap_token_syntax.h).
#include "app/util/bootstrap_token_syntax.h"

#include "app/util/ascii.h"

namespace kkadm::util {

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

}  // namespace kkadm::util
