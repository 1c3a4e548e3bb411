// CommandContext: what every command shares: global flags, the output streams, the exit code the
// command chose, and the host seams built after parsing.
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "app/config/release_version.h"
#include "app/util/host.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct GlobalOptions {
  int verbosity = 0;
  std::string rootfs;  // "" = the machine's own root
  // Every phase subcommand is built before parsing, rather than only when `phase` is parsed
  // (workflow::BindOptions::phase_commands_now): for --help-all, `kkadm help` and
  // `kkadm completion`, which show commands without parsing into them.
  bool all_commands_now = false;
};

struct CommandContext {
  CommandContext(std::ostream& out_stream, std::ostream& err_stream)
      : out(out_stream), err(err_stream) {}
  std::ostream& out;
  std::ostream& err;
  GlobalOptions global;
  int exit_code = 0;
  // The outcome of the command that ran; Main maps it to exit_code and prints it.
  Status status;
  // Where Kubernetes version labels are looked up (Main: the release buckets, or
  // $KKADM_RELEASE_URL); a context without one cannot look labels up, so they fall back to
  // kkadm's version with kubeadm's warnings.
  config::ReleaseVersionSource release_versions;
};

}  // namespace kkadm::cmd
