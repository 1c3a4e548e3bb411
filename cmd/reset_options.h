// ResetOptions: the raw flags of `kkadm reset` and its phase subcommands, as the user gave them.
// MakeResetData (cmd/reset.cc) is the one place that turns them into validated ResetData.
#pragma once

#include <string>

#include "app/config/join_flags.h"
#include "app/workflow/cli.h"

namespace kkadm::cmd {

struct ResetOptions {
  std::string config_path;
  config::ResetFlags flags;  // config-bound flags; set optionals are the ones the user gave
  bool cleanup_cni = false;  // kkadm's extension: also empty /etc/cni/net.d
  std::string kubeconfig_path = "/etc/kubernetes/admin.conf";
};

// Registers every flag of `kkadm reset` in `flags`, bound to `options` (which must outlive them).
void RegisterResetFlags(workflow::FlagSet& flags, ResetOptions& options);

}  // namespace kkadm::cmd
