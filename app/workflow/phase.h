// Phase: one step of a kkadm workflow (init, join, reset), as plain data the Runner walks.
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "app/util/status.h"

namespace kkadm::workflow {

// A flag only one phase subcommand has (kubeadm's LocalFlags), bound straight to its storage.
struct LocalFlag {
  std::string name;
  std::string help;
  std::variant<bool*, std::string*, std::vector<std::string>*> target;
};

struct Phase {
  std::string name;        // kebab-case
  std::string args_usage;  // e.g. "[api-server-endpoint]", usually empty
  std::vector<std::string> aliases;
  std::string description;  // short help (one line)
  std::string long_description;
  std::string example;
  bool hidden = false;
  std::vector<Phase> children;
  std::vector<std::string> dependencies;  // names of phases that must run earlier
  std::function<Status()> run;            // may be empty (a pure parent)
  // May be empty. Called for every phase selected to run, in order, after data initialisation and
  // before the first phase runs: a phase starts slow background work it will need there (init's
  // certs and kubeconfig phases start all their keys at once instead of one phase after the other).
  std::function<void()> prepare;
  // May be empty. Called for every phase selected to run, in order, after data initialisation and
  // before any phase runs or is prepared: a phase refuses here what it would otherwise only find
  // out half way, after earlier phases wrote files (a patch that does not apply to its manifest).
  // An error stops the run as a failure of this phase.
  std::function<Status()> check;
  std::function<Result<bool>()> run_if;  // may be empty
  std::vector<std::string>
      inherit_flags;  // names of the command's flags this phase's subcommand gets
  std::vector<LocalFlag> local_flags;
};

}  // namespace kkadm::workflow
