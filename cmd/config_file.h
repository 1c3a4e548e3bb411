// Reading the --config file: an input on this machine, not a node path, so it is read directly.
#pragma once

#include <optional>
#include <string>

#include "app/config/load.h"
#include "app/util/status.h"

namespace kkadm::cmd {

// nullopt for an empty path; InvalidArgument naming the file when it cannot be read, is not a
// regular file (a directory, a FIFO, a device) or is over util::yaml::kMaxTextBytes.
Result<std::optional<config::ConfigSource>> ReadConfigFile(const std::string& path);

}  // namespace kkadm::cmd
