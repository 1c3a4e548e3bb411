// InitOptions: the raw flags of `kkadm init` and its phase subcommands, as the user gave them.
// MakeInitData (cmd/init.cc) is the one place that turns them into validated InitData.
#pragma once

#include <string>

#include "app/config/init_flags.h"
#include "app/workflow/cli.h"

namespace kkadm::cmd {

struct InitOptions {
  std::string config_path;
  config::InitFlags flags;  // config-bound flags; set optionals are the ones the user gave
  bool upload_certs = false;
  bool skip_token_print = false;
  bool skip_certificate_key_print = false;
  bool force = false;                   // overwrite files changed since kkadm wrote them
  std::string cri_socket_wait = "10s";  // the CRI check's wait for the runtime's socket
  std::string kubeconfig_dir = "/etc/kubernetes";
  std::string kubeconfig_path = "/etc/kubernetes/admin.conf";
};

// Registers every flag of `kkadm init` in `flags`, bound to `options` (which must outlive them).
void RegisterInitFlags(workflow::FlagSet& flags, InitOptions& options);

}  // namespace kkadm::cmd
