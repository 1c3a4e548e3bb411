#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "app/util/status.h"

namespace kkadm::workflow {
struct LocalFlag { std::string name; std::string help; std::variant<bool*, std::string*, std::vector<std::string>*> target; };
struct Phase {
  std::string name;                       // kebab-case
  std::string args_usage;                 // e.g. "[api-server-endpoint]", usually empty
  std::vector<std::string> aliases;
  std::string description;                // short help (one line)
  std::string long_description;
  std::string example;
  bool hidden = false;
  std::vector<Phase> children;
  std::vector<std::string> dependencies;  // names of phases that must run earlier
  std::function<Status()> run;            // may be empty (a pure parent)
  std::function<Result<bool>()> run_if;   // may be empty
  std::vector<std::string> inherit_flags; // names of the command's flags this phase's subcommand gets
  std::vector<LocalFlag> local_flags;
};
}
