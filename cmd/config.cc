// `kkadm config`: print kubeadm's defaults, validate a configuration file.
#include "cmd/config.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "app/config/defaults.h"
#include "app/config/encode.h"
#include "app/config/load.h"
#include "app/config/make_config.h"
#include "app/config/print_defaults.h"
#include "app/util/machine_real.h"
#include "cmd/config_file.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

struct ConfigOptions {
  std::vector<std::string> component_configs;
  std::string config_path;
};

Status AppendComponentConfigs(const ConfigOptions& options,
                              const config::ClusterConfiguration& cluster, std::string& out) {
  for (const std::string& kind : options.component_configs) {
    auto doc = config::DefaultComponentConfig(kind, cluster);
    if (!doc) return doc.error();
    out += "---\n" + config::EncodeComponentConfig(*doc);
  }
  return Status();
}

Status PrintInitDefaults(const ConfigOptions& options, CommandContext& context) {
  auto cfg = config::InitDefaultsForPrint();
  if (!cfg) return cfg.error();
  std::string out = config::EncodeInitConfiguration(*cfg) + "---\n" +
                    config::EncodeClusterConfiguration(cfg->cluster);
  KKADM_RETURN_IF_ERROR(AppendComponentConfigs(options, cfg->cluster, out));
  context.out << out;
  return Status();
}

Status PrintJoinDefaults(const ConfigOptions& options, CommandContext& context) {
  auto cfg = config::JoinDefaultsForPrint();
  if (!cfg) return cfg.error();
  std::string out = config::EncodeJoinConfiguration(*cfg);
  config::ClusterConfiguration cluster;
  config::SetClusterDefaults(cluster);
  KKADM_RETURN_IF_ERROR(AppendComponentConfigs(options, cluster, out));
  context.out << out;
  return Status();
}

void PrintWarnings(const std::vector<std::string>& warnings, CommandContext& context) {
  for (const std::string& w : warnings) context.err << "[config] WARNING: " << w << '\n';
}

// Strict decoding first (unknown fields and kinds fail), then the same defaulting and validation
// init/join/reset apply, for each kind the file holds.
Status Validate(const ConfigOptions& options, CommandContext& context) {
  auto file = ReadConfigFile(options.config_path);
  if (!file) return file.error();
  if (!*file) return InvalidArgument("config validate: --config is required");
  const std::optional<config::ConfigSource>& source = *file;
  auto docs = config::LoadDocuments(*source, /*strict=*/true);
  if (!docs) return docs.error();
  std::vector<std::string> warnings = docs->warnings;
  const util::RealMachine real{};
  const std::unique_ptr<util::Machine> example = config::ExampleMachine(real);
  const util::Machine& machine = *example;
  if (docs->init || docs->cluster || (!docs->join && !docs->reset)) {
    auto init = config::MakeInitConfiguration(*source, {}, machine, context.release_versions);
    if (!init) return init.error();
  }
  if (docs->join) {
    auto join = config::MakeJoinConfiguration(*source, {}, machine);
    if (!join) return join.error();
  }
  if (docs->reset) {
    auto reset = config::MakeResetConfiguration(*source, {});
    if (!reset) return reset.error();
  }
  PrintWarnings(warnings, context);
  context.out << "ok\n";
  return Status();
}

}  // namespace

void AddConfigCommand(CLI::App& parent, CommandContext& context) {
  auto options = std::make_shared<ConfigOptions>();
  auto* config = parent.add_subcommand("config", "Manage configuration for a kubeadm cluster");
  config->require_subcommand(1);

  auto* print = config->add_subcommand("print", "Print configuration");
  print->require_subcommand(1);
  auto* init = print->add_subcommand(
      "init-defaults", "Print default init configuration, that can be used for 'kkadm init'");
  auto* join = print->add_subcommand(
      "join-defaults", "Print default join configuration, that can be used for 'kkadm join'");
  for (auto* cmd : {init, join}) {
    cmd->add_option("--component-configs", options->component_configs,
                    "A comma-separated list for component config API objects to print the default "
                    "values for. "
                    "Available values: [KubeletConfiguration KubeProxyConfiguration]")
        ->delimiter(',')
        ->allow_extra_args(false);
  }
  init->callback([&context, options] { context.status = PrintInitDefaults(*options, context); });
  join->callback([&context, options] { context.status = PrintJoinDefaults(*options, context); });

  auto* validate = config->add_subcommand(
      "validate",
      "Read a file containing the kubeadm configuration API and report any validation problems");
  validate->add_option("--config", options->config_path, "Path to a kubeadm configuration file")
      ->required();
  validate->callback([&context, options] { context.status = Validate(*options, context); });
}

}  // namespace kkadm::cmd
