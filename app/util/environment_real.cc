// ProcessEnvironment over POSIX environ (see environment.h).
#include <unistd.h>

#include <string_view>

#include "app/util/environment.h"

namespace kkadm::util {

std::vector<EnvVar> ProcessEnvironment() {
  std::vector<EnvVar> vars;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    std::string_view text(*entry);
    auto eq = text.find('=');
    if (eq == std::string_view::npos) continue;  // malformed: kubeadm skips these too
    vars.push_back({std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))});
  }
  return vars;
}

}  // namespace kkadm::util
