// Well-formed sample values shared by the command tests: a CA pin and a certificate key.
#pragma once

#include <string>

namespace kkadm::cmd::samples {

inline const std::string kPin = "sha256:" + std::string(64, 'a');
inline const std::string kKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

}  // namespace kkadm::cmd::samples
