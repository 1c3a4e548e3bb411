// Typed flag registrations over CLI11 (see typed_flags.h).
#include "cmd/typed_flags.h"

#include <CLI/CLI.hpp>
#include <cstdint>

namespace kkadm::cmd {

void AddStringFlag(workflow::FlagSet& flags, const std::string& name,
                   std::optional<std::string>& target, const std::string& help) {
  flags.Register(name, [name, &target, help](CLI::App& app) {
    return app.add_option_function<std::string>(
        "--" + name, [&target](const std::string& value) { target = value; }, help);
  });
}

void AddListFlag(workflow::FlagSet& flags, const std::string& name,
                 std::optional<std::vector<std::string>>& target, const std::string& help) {
  flags.Register(name, [name, &target, help](CLI::App& app) {
    auto append = [&target](const std::vector<std::string>& values) {
      if (!target) target.emplace();
      target->insert(target->end(), values.begin(), values.end());
    };
    // One argument per occurrence, as pflag's: `--name a,b POSITIONAL` leaves POSITIONAL alone.
    return app.add_option_function<std::vector<std::string>>("--" + name, append, help)
        ->delimiter(',')
        ->allow_extra_args(false);
  });
}

void AddOptionalBoolFlag(workflow::FlagSet& flags, const std::string& name,
                         std::optional<bool>& target, const std::string& help,
                         const std::string& shorthand) {
  std::string names = shorthand.empty() ? "--" + name : shorthand + ",--" + name;
  flags.Register(name, [names, &target, help](CLI::App& app) {
    return app.add_flag_function(
        names, [&target](std::int64_t count) { target = count > 0; }, help);
  });
}

void AddBoolFlag(workflow::FlagSet& flags, const std::string& name, bool& target,
                 const std::string& help, workflow::FlagSet::Scope scope) {
  flags.Register(
      name,
      [name, &target, help](CLI::App& app) { return app.add_flag("--" + name, target, help); },
      scope);
}

void AddConfigFlag(workflow::FlagSet& flags, std::string& path) {
  flags.Register("config", [&path](CLI::App& app) {
    return app.add_option("--config", path, "Path to a kubeadm configuration file.");
  });
}

void AddCriSocketFlag(workflow::FlagSet& flags, std::optional<std::string>& target) {
  AddStringFlag(flags, "cri-socket", target,
                "Path to the CRI socket to connect. If empty kkadm will try to auto-detect this "
                "value; use this option only if you have more than one CRI installed or if you "
                "have non-standard CRI socket.");
}

void AddNodeNameFlag(workflow::FlagSet& flags, std::optional<std::string>& target) {
  AddStringFlag(flags, "node-name", target, "Specify the node name.");
}

void AddPatchesFlag(workflow::FlagSet& flags, std::optional<std::string>& target) {
  AddStringFlag(
      flags, "patches", target,
      "Path to a directory that contains files named \"target[suffix][+patchtype].extension\". "
      "\"target\" can be one of \"kube-apiserver\", \"kube-controller-manager\", "
      "\"kube-scheduler\", \"etcd\", \"kubeletconfiguration\".");
}

void AddIgnorePreflightErrorsFlag(workflow::FlagSet& flags,
                                  std::optional<std::vector<std::string>>& target) {
  AddListFlag(flags, "ignore-preflight-errors", target,
              "A list of checks whose errors will be shown as warnings. Example: "
              "'IsPrivilegedUser,Swap'. Value 'all' ignores errors from all checks.");
}

void AddDryRunFlag(workflow::FlagSet& flags, std::optional<bool>& target) {
  AddOptionalBoolFlag(flags, "dry-run", target,
                      "Don't apply any changes; just output what would be done.");
}

void AddApiServerBindPortFlag(workflow::FlagSet& flags, std::optional<int>& target,
                              const std::string& help) {
  flags.Register("apiserver-bind-port", [&target, help](CLI::App& app) {
    return app
        .add_option_function<int>(
            "--apiserver-bind-port", [&target](const int& port) { target = port; }, help)
        ->check(CLI::Range(1, 65535));
  });
}

}  // namespace kkadm::cmd
