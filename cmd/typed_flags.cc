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
    return app.add_option_function<std::vector<std::string>>("--" + name, append, help)
        ->delimiter(',');
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

}  // namespace kkadm::cmd
