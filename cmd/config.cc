// `kkadm config`: print kubeadm's defaults, validate a configuration file.
#include "cmd/config.h"

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "app/config/defaults.h"
#include "app/config/encode.h"
#include "app/config/load.h"
#include "app/config/make_config.h"
#include "app/config/migrate.h"
#include "app/config/print_defaults.h"
#include "app/util/file_system_real.h"
#include "app/util/machine_real.h"
#include "cmd/config_file.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

struct ConfigOptions {
  std::vector<std::string> component_configs;
  std::string config_path;
  std::string old_config;
  std::string new_config;
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

// kubeadm's MigrateOldConfig with this machine's dynamic defaults. The output file is written only
// once the whole migration succeeded, atomically, mode 0644 (kubeadm's os.WriteFile mode).
Status Migrate(const ConfigOptions& options, CommandContext& context) {
  if (options.old_config.empty()) return InvalidArgument("the --old-config flag is mandatory");
  auto file = ReadConfigFile(options.old_config);
  if (!file) return file.error();
  const util::RealMachine machine{};
  auto migrated = config::MigrateConfig(**file, machine, context.release_versions);
  if (!migrated) return migrated.error();
  PrintWarnings(migrated->warnings, context);
  if (options.new_config.empty()) {
    context.out << migrated->text;
    return Status();
  }
  util::RealFileSystem fs("/");
  Status written =
      fs.WriteFile(std::filesystem::absolute(options.new_config).lexically_normal().string(),
                   migrated->text, 0644);
  if (!written.ok()) {
    return written.Wrap("failed to write the new configuration to the file \"" +
                        options.new_config + "\"");
  }
  return fs.Sync();
}

void AddMigrateCommand(CLI::App& config, const std::shared_ptr<ConfigOptions>& options,
                       CommandContext& context) {
  auto* migrate = config.add_subcommand(
      "migrate",
      "Read an older version of the kubeadm configuration API types from a file, and output the "
      "similar config object for the newer version");
  migrate->add_option("--old-config", options->old_config,
                      "Path to the kubeadm config file that is using an old API version and "
                      "should be converted. This flag is mandatory.");
  migrate->add_option("--new-config", options->new_config,
                      "Path to the resulting equivalent kubeadm config file using the new API "
                      "version. Optional, if not specified output will be sent to STDOUT.");
  migrate->callback([&context, options] { context.status = Migrate(*options, context); });
}

void AddPrintResetUpgrade(CLI::App& print, CommandContext& context) {
  print
      .add_subcommand("reset-defaults",
                      "Print default reset configuration, that can be used for 'kkadm reset'")
      ->callback([&context] {
        context.out << config::EncodeResetConfiguration(config::ResetDefaultsForPrint());
      });
  print
      .add_subcommand("upgrade-defaults",
                      "Print default upgrade configuration, that can be used for 'kubeadm upgrade'")
      ->callback([&context] { context.out << config::EncodeUpgradeDefaults(); });
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
  AddPrintResetUpgrade(*print, context);
  AddMigrateCommand(*config, options, context);

  auto* validate = config->add_subcommand(
      "validate",
      "Read a file containing the kubeadm configuration API and report any validation problems");
  validate->add_option("--config", options->config_path, "Path to a kubeadm configuration file")
      ->required();
  validate->callback([&context, options] { context.status = Validate(*options, context); });
}

}  // namespace kkadm::cmd
