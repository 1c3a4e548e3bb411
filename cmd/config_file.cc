// Reads a --config file into memory.
#include "cmd/config_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace kkadm::cmd {

Result<std::optional<config::ConfigSource>> ReadConfigFile(const std::string& path) {
  if (path.empty()) return std::optional<config::ConfigSource>();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return InvalidArgument(
        fmt::format("unable to read config from \"{}\": {}", path, std::strerror(errno)));
  }
  std::ostringstream content;
  content << in.rdbuf();
  return std::optional<config::ConfigSource>(config::ConfigSource{path, content.str()});
}

}  // namespace kkadm::cmd
