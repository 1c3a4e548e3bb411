// Reads a --config file into memory.
#include "cmd/config_file.h"

#include <fmt/format.h>

#include "app/util/input_file.h"
#include "app/util/printable.h"
#include "app/util/yaml/limits.h"

namespace kkadm::cmd {

Result<std::optional<config::ConfigSource>> ReadConfigFile(const std::string& path) {
  if (path.empty()) return std::optional<config::ConfigSource>();
  Result<std::string> content = util::ReadInputFile(path, util::yaml::kMaxTextBytes);
  if (!content) {
    return InvalidArgument(fmt::format("unable to read config from {}: {}", util::Quote(path),
                                       content.error().message()));
  }
  return std::optional<config::ConfigSource>(config::ConfigSource{path, std::move(*content)});
}

}  // namespace kkadm::cmd
