// Naming the flag behind a configuration error: a value that came from a flag is reported under
// the flag's name ("--service-cidr: networking.serviceSubnet: invalid value ..."), so the user
// knows what to fix. Each command lists which configuration field each of its flags sets.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/status.h"

namespace kkadm::cmd {

// A config-bound flag ("service-cidr") and the field it sets, as validation paths name it
// ("networking.serviceSubnet"). A list field covers its elements ("apiServer.certSANs[1]").
struct FlagField {
  std::string_view flag;
  std::string_view field;
};

// `error` worded under a flag's name ("--<flag>: <path>: <problem>", still carrying its field)
// when it is about a field of `fields` whose flag is among `set_flags` and whose document came
// from defaults and flags (a --config document's value stays under the file's name); otherwise
// `error` unchanged. When two flags set one field, the row listed first wins: list the flag whose
// value the command keeps first.
Status NameFlagInError(const Status& error, std::span<const FlagField> fields,
                       const std::vector<std::string>& set_flags);

// The fields set by the flags of `kkadm init` (and `config images list`), `join` and `reset`.
std::span<const FlagField> InitFlagFields();
std::span<const FlagField> JoinFlagFields();
std::span<const FlagField> ResetFlagFields();

}  // namespace kkadm::cmd
