// The host and flags the certs commands share (see certs_host.h).
#include "cmd/certs_host.h"

#include <memory>
#include <sstream>

#include "app/config/defaults.h"
#include "app/config/make_config.h"
#include "app/util/machine_real.h"
#include "app/util/printer.h"
#include "cmd/config_file.h"
#include "cmd/context.h"
#include "cmd/host_factory.h"

namespace kkadm::cmd {

Status WithCertsHost(CommandContext& context, const std::function<Status(util::Host&)>& run,
                     std::ostream* dry_run_out) {
  util::RealMachine machine;
  // MakeHost's printer: these commands make no mount or service change; a dry run's file
  // system says what it would write.
  std::ostringstream unused;
  util::Printer printer(dry_run_out != nullptr ? *dry_run_out : unused);
  HostOptions options;
  options.rootfs = context.global.rootfs;
  options.dry_run = dry_run_out != nullptr;
  options.dry_run_name = "renew";
  Result<std::unique_ptr<OwnedHost>> host = MakeHost(options, machine, printer);
  if (!host) return host.error();
  return SyncNodeFiles(host->get(), run((*host)->host()));
}

Result<config::InitConfiguration> LoadInitForCerts(const std::string& config_path,
                                                   CommandContext& context) {
  auto file = ReadConfigFile(config_path);
  if (!file) return file.error();
  config::InitFlags flags;
  if (!*file) flags.kubernetes_version = config::ResolveKubernetesVersion("");
  util::RealMachine machine;
  auto loaded = config::MakeInitConfiguration(*file, flags, machine, context.release_versions);
  if (!loaded) return loaded.error();
  for (const std::string& w : loaded->warnings) context.err << "[config] WARNING: " << w << '\n';
  return std::move(loaded->cfg);
}

void AddCertsConfigFlags(CLI::App& cmd, CertsConfigOptions& options) {
  cmd.add_option("--config", options.config_path, "Path to a kubeadm configuration file");
  cmd.add_option_function<std::string>(
         "--cert-dir", [&options](const std::string& dir) { options.cert_dir = dir; },
         "The path where to save the certificates")
      ->default_str("/etc/kubernetes/pki");
  cmd.add_option("--kubeconfig", options.kubeconfig,
                 "The kubeconfig file to use when talking to the cluster. If the flag is not set, "
                 "a set of standard locations can be searched for an existing kubeconfig file")
      ->capture_default_str();
}

}  // namespace kkadm::cmd
