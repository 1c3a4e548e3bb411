// Plain pieces of a control-plane component's Pod: a command-line argument, an environment
// variable, a hostPath mount. The configuration (config::Arg, config::EnvVar,
// config::HostPathMount name these same types) and the static Pod builder (static_pod.h) share
// them, so app/util needs nothing from app/config.
#pragma once

#include <string>

namespace kkadm::util {

// One command-line argument of a component, "--name=value".
struct Arg {
  std::string name;
  std::string value;
  bool operator==(const Arg&) const = default;
};

struct EnvVar {
  std::string name;
  std::string value;
  bool operator==(const EnvVar&) const = default;
};

struct HostPathMount {
  std::string name;
  std::string host_path;
  std::string mount_path;
  bool read_only = false;
  std::string path_type;  // "", "DirectoryOrCreate", "FileOrCreate", ...
  bool operator==(const HostPathMount&) const = default;
};

}  // namespace kkadm::util
