// Phase: one step of a kkadm workflow (init, join, reset), as plain data the Runner walks.
#pragma once

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "app/util/status.h"

namespace kkadm::workflow {

// One value a phase reads, named as the user knows it: a config field
// ("apiServer.extraArgs[enable-admission-plugins]"), a flag ("--upload-certs"), a version or a
// fact found on the machine. The node's journal compares a phase's inputs with those it last ran
// with; a secret's value is only ever kept and compared as its hash.
struct PhaseInput {
  std::string name;
  std::string value;
  bool secret = false;
};

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
  // May be empty (the phase reads nothing that could change between runs). Called after data
  // initialisation; what the phase reads, for the node's journal (app/workflow/observer.h).
  std::function<std::vector<PhaseInput>()> inputs;
  std::vector<std::string>
      inherit_flags;  // names of the command's flags this phase's subcommand gets
  std::vector<LocalFlag> local_flags;
};

}  // namespace kkadm::workflow
