// The syntax of bootstrap tokens and of the groups they may add (k8s.io/cluster-bootstrap's
// token/api patterns), shared by configuration, the token commands, discovery and join tokens;
// and fresh tokens in that syntax, the one generator of them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "app/util/status.h"

namespace kkadm::util {

struct BootstrapTokenParts {
  std::string id;      // 6 of [a-z0-9]
  std::string secret;  // 16 of [a-z0-9]
};

// ^[a-z0-9]{6}\.[a-z0-9]{16}$ (cluster-bootstrap's BootstrapTokenPattern).
bool IsBootstrapToken(std::string_view token);
// The id and secret of a token IsBootstrapToken accepts; nullopt for any other text.
std::optional<BootstrapTokenParts> SplitBootstrapToken(std::string_view token);

// ^[a-z0-9]{6}$.
bool IsBootstrapTokenId(std::string_view id);

// ^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$ (cluster-bootstrap's BootstrapGroupPattern).
bool IsBootstrapGroupName(std::string_view group);

// A fresh "<6>.<16>" token of [a-z0-9] (cluster-bootstrap's GenerateBootstrapToken), drawn from
// OpenSSL's CSPRNG without modulo bias. Internal when the CSPRNG fails.
Result<std::string> GenerateBootstrapToken();

}  // namespace kkadm::util
