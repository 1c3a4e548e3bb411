// `kkadm kubeconfig user` (see kubeconfig_user.h).
#include "cmd/kubeconfig_user.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>

#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/util/duration.h"
#include "cmd/certs_host.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

constexpr std::chrono::hours kDefaultValidity{8760};

struct UserOptions {
  std::string config_path;
  std::string client_name;
  std::vector<std::string> organizations;
  std::string validity_period = "8760h0m0s";
};

Result<std::chrono::milliseconds> ValidityOf(const std::string& text) {
  auto validity = util::ParseDuration(text);
  if (!validity) {
    return InvalidArgument(fmt::format("invalid argument \"{}\" for \"--validity-period\" flag: {}",
                                       text, validity.error().message()));
  }
  if (validity->count() <= 0) {
    return InvalidArgument(fmt::format(
        "invalid argument \"{}\" for \"--validity-period\" flag: must be positive", text));
  }
  if (*validity > kDefaultValidity) {
    spdlog::warn(
        "WARNING: the specified certificate validity period {} is longer than the default "
        "duration {}, this may increase security risks.",
        util::FormatDuration(*validity), util::FormatDuration(kDefaultValidity));
  }
  return validity;
}

Status PrintUserKubeconfig(const UserOptions& options, CommandContext& context) {
  auto validity = ValidityOf(options.validity_period);
  if (!validity) return validity.error();
  auto cfg = LoadInitForCerts(options.config_path, context);
  if (!cfg) return cfg.error();
  auto server = phases::kubeconfig::ControlPlaneEndpoint(*cfg);
  if (!server) return server.error();
  return WithCertsHost(context, [&](util::Host& host) -> Status {
    std::ostringstream unused;
    util::Printer printer(unused);
    phases::kubeconfig::KubeconfigEnv env{*cfg, host.fs, printer, host.clock, "/etc/kubernetes"};
    const phases::kubeconfig::KubeconfigSpec spec{.file_name = "",
                                                  .client_name = options.client_name,
                                                  .organizations = options.organizations,
                                                  .server = *server};
    auto yaml = phases::kubeconfig::BuildWithClientCert(spec, env, host.clock.Now() + *validity);
    if (!yaml) return yaml.error();
    context.out << *yaml;
    return Status();
  });
}

}  // namespace

void AddKubeconfigCommand(CLI::App& root, CommandContext& context) {
  auto* kubeconfig = root.add_subcommand("kubeconfig", "Kubeconfig file utilities");
  kubeconfig->require_subcommand(1);
  auto* user =
      kubeconfig->add_subcommand("user", "Output a kubeconfig file for an additional user");
  auto options = std::make_shared<UserOptions>();
  user->add_option("--config", options->config_path, "Path to a kubeadm configuration file");
  user->add_option("--client-name", options->client_name,
                   "The name of user. It will be used as the CN if client certificates are created")
      ->required();
  user->add_option("--org", options->organizations,
                   "The organizations of the client certificate. It will be used as the O if "
                   "client certificates are created")
      ->delimiter(',');
  user->add_option("--validity-period", options->validity_period,
                   "The validity period of the client certificate. It is an offset from the "
                   "current time.")
      ->capture_default_str();
  user->callback([&context, options] { context.status = PrintUserKubeconfig(*options, context); });
}

}  // namespace kkadm::cmd
