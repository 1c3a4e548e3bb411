// The flags of `kkadm reset` (kubeadm's names, defaults and help, plus --cleanup-cni), registered
// once so the main command and the phase subcommands that inherit them bind the same storage.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cmd/reset_options.h"
#include "cmd/typed_flags.h"

namespace kkadm::cmd {

void RegisterResetFlags(workflow::FlagSet& flags, ResetOptions& o) {
  config::ResetFlags& f = o.flags;
  AddConfigFlag(flags, o.config_path);
  flags.Register("cert-dir", [&f](CLI::App& app) {
    return app.add_option_function<std::string>(
        "--cert-dir", [&f](const std::string& value) { f.cert_dir = value; },
        "The path to the directory where the certificates are stored. If specified, clean this "
        "directory. "
        "(default \"/etc/kubernetes/pki\")");
  });
  AddCriSocketFlag(flags, f.cri_socket);
  AddOptionalBoolFlag(flags, "force", f.force, "Reset the node without prompting for confirmation.",
                      "-f");
  AddDryRunFlag(flags, f.dry_run);
  AddOptionalBoolFlag(flags, "cleanup-tmp-dir", f.cleanup_tmp_dir,
                      "Cleanup the \"/etc/kubernetes/tmp\" directory");
  flags.Register("cleanup-cni", [&o](CLI::App& app) {
    return app.add_flag("--cleanup-cni", o.cleanup_cni,
                        "Also delete the contents of \"/etc/cni/net.d\" (the CNI configuration; "
                        "kkadm's extension)");
  });
  AddIgnorePreflightErrorsFlag(flags, f.ignore_preflight_errors);
  flags.Register("kubeconfig", [&o](CLI::App& app) {
    return app
        .add_option("--kubeconfig", o.kubeconfig_path,
                    "The kubeconfig file to use when talking to the cluster. If the flag is not "
                    "set, a set of standard "
                    "locations can be searched for an existing kubeconfig file.")
        ->capture_default_str();
  });
}

}  // namespace kkadm::cmd
