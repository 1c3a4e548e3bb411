// Typed registrations of kubeadm-style flags in a workflow::FlagSet, and the flags the commands
// share. The
// optional targets are set only when the user gives the flag, so a config file's value stands
// otherwise (kubeadm's flag-over-file precedence).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/workflow/cli.h"

namespace kkadm::cmd {

// --name VALUE.
void AddStringFlag(workflow::FlagSet& flags, const std::string& name,
                   std::optional<std::string>& target, const std::string& help);

// --name a,b --name c: comma-separated and repeatable, as pflag's StringSlice.
void AddListFlag(workflow::FlagSet& flags, const std::string& name,
                 std::optional<std::vector<std::string>>& target, const std::string& help);

// --name (true; --name=false gives false). `shorthand` is e.g. "-f", empty for none.
void AddOptionalBoolFlag(workflow::FlagSet& flags, const std::string& name,
                         std::optional<bool>& target, const std::string& help,
                         const std::string& shorthand = "");

// --name on a plain bool whose default is its initial value.
void AddBoolFlag(workflow::FlagSet& flags, const std::string& name, bool& target,
                 const std::string& help,
                 workflow::FlagSet::Scope scope = workflow::FlagSet::Scope::kCommandAndPhases);

// The flags several commands share, with kubeadm's names and help (kubeadm's options/generic.go).
void AddConfigFlag(workflow::FlagSet& flags, std::string& path);
void AddCriSocketFlag(workflow::FlagSet& flags, std::optional<std::string>& target);
void AddNodeNameFlag(workflow::FlagSet& flags, std::optional<std::string>& target);
void AddPatchesFlag(workflow::FlagSet& flags, std::optional<std::string>& target);
void AddIgnorePreflightErrorsFlag(workflow::FlagSet& flags,
                                  std::optional<std::vector<std::string>>& target);
void AddDryRunFlag(workflow::FlagSet& flags, std::optional<bool>& target);
// --apiserver-bind-port, 1 to 65535.
void AddApiServerBindPortFlag(workflow::FlagSet& flags, std::optional<int>& target,
                              const std::string& help);

}  // namespace kkadm::cmd
