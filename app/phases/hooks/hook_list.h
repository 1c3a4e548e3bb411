// The hooks of a command: which executables of the hooks directory run at which stage of which
// phase, in which order, with which settings (docs/hooks.md).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/status.h"

namespace kkadm::phases::hooks {

inline constexpr char kDefaultHooksDir[] = "/etc/kkadm/hooks.d";
inline constexpr std::chrono::milliseconds kDefaultHookTimeout = std::chrono::minutes(5);

enum class Stage { kPre, kPost };
std::string_view StageName(Stage stage);  // "pre", "post"

struct Hook {
  std::string name;  // "10-wait-for-containerd"
  std::string path;  // its node path
  std::chrono::milliseconds timeout = kDefaultHookTimeout;
  bool fatal = true;  // its failure fails the phase
};

// run-parts' rule for the names of hooks: one or more of [A-Za-z0-9_-]. A name with a dot is
// not a hook ("10-x.yaml" holds the settings of "10-x"; "x.dpkg-old" is left out).
bool IsHookName(std::string_view name);

// The directory of a command's hooks of one stage of a phase: "<hooks_dir>/<command>/<stage>-
// <phase>.d", the phase's path keeping its '/' ("init/pre-certs/ca.d"); with no phase, the hooks
// of the whole command: "<hooks_dir>/<command>/<stage>.d".
std::string HookDirectory(std::string_view hooks_dir, std::string_view command, Stage stage,
                          std::string_view phase);

// The hooks of node directory `dir`, in lexical (byte) order of their names: the regular files
// with a hook's name and an execute bit. None when `dir` does not exist. A sidecar "<name>.yaml"
// beside a hook sets its `timeout` (a duration: "30s", "2m") and `fatal` (true or false); any
// other field, a bad value or an unreadable file is an InvalidArgument naming the file.
// Entries that are neither files nor directories named like a hook are left out with a warning.
Result<std::vector<Hook>> FindHooks(const util::FileSystem& fs, const std::string& dir);

}  // namespace kkadm::phases::hooks
