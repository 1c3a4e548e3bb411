// Bootstrap tokens as kubeadm's bootstraptoken/v1 handles them: parsing into the configuration's
// BootstrapToken, and their Secret form "bootstrap-token-<id>" in kube-system. Their syntax and
// generation are util::'s (bootstrap_token_syntax.h), their default description config::'s.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kBootstrapTokenSecretPrefix = "bootstrap-token-";
inline constexpr const char* kBootstrapTokenSecretType = "bootstrap.kubernetes.io/token";

// Splits "<id>.<secret>"; InvalidArgument unless it matches ^[a-z0-9]{6}\.[a-z0-9]{16}$.
Result<config::BootstrapToken> ParseBootstrapToken(const std::string& token);
bool IsValidTokenId(const std::string& id);

// The Secret of a token: type bootstrap.kubernetes.io/token; data (base64) token-id, token-secret,
// description (if any), expiration (expires, else now+ttl when ttl > 0), usage-bootstrap-<u>:
// "true" per usage, auth-extra-groups (comma-joined, if any).
nlohmann::json BootstrapTokenSecret(const config::BootstrapToken& token,
                                    std::chrono::system_clock::time_point now);

// The token a Secret describes (ttl unset; expires from `expiration`); InvalidArgument when the
// Secret is not a well-formed bootstrap token.
Result<config::BootstrapToken> BootstrapTokenFromSecret(const nlohmann::json& secret);

}  // namespace kkadm::phases
