// `kkadm certs` and its check-expiration and certificate-key subcommands; the configuration
// loading all certs subcommands share.
#include "cmd/certs.h"

#include <fmt/format.h>

#include <memory>
#include <sstream>

#include "app/config/defaults.h"
#include "app/config/make_config.h"
#include "app/phases/bootstraptoken/join_facts.h"
#include "app/phases/certs/expiration.h"
#include "app/util/crypto.h"
#include "app/util/machine_real.h"
#include "app/util/network.h"
#include "app/util/yaml/yaml.h"
#include "cmd/certs_host.h"
#include "cmd/config_file.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

// A node whose API server is down or whose certificates expired must not keep the command
// waiting: one short try.
constexpr std::chrono::seconds kClusterConfigTimeout{5};

Result<config::ClusterConfiguration> FromCluster(const CertsConfigOptions& options,
                                                 util::Host& host, std::ostream* info,
                                                 const std::string& prefix) {
  if (info != nullptr) {
    *info << fmt::format(
        "[{}] Reading configuration from the \"kubeadm-config\" ConfigMap in namespace "
        "\"kube-system\"...\n[{}] Use 'kkadm init phase upload-config --config "
        "your-config-file' to re-upload it.\n",
        prefix, prefix);
  }
  auto client = util::KubeClientFromKubeconfigFile(
      host.net, host.fs, options.kubeconfig,
      {.clock = host.clock, .api_call = kClusterConfigTimeout, .request = kClusterConfigTimeout});
  if (!client) return client.error();
  return phases::FetchClusterConfiguration(**client);
}

Result<config::ClusterConfiguration> FromFileOrDefaults(const CertsConfigOptions& options,
                                                        CommandContext& context,
                                                        config::Timeouts* timeouts) {
  auto file = ReadConfigFile(options.config_path);
  if (!file) return file.error();
  if (!*file) {
    config::ClusterConfiguration cluster;
    config::SetClusterDefaults(cluster);
    return cluster;
  }
  util::RealMachine machine;
  auto loaded = config::MakeInitConfiguration(*file, {}, machine, context.release_versions);
  if (!loaded) return loaded.error();
  for (const std::string& w : loaded->warnings) context.err << "[config] WARNING: " << w << '\n';
  if (timeouts != nullptr) *timeouts = loaded->cfg.timeouts;
  return loaded->cfg.cluster;
}

Status CheckExpiration(const CertsConfigOptions& options, const std::string& output,
                       CommandContext& context) {
  return WithCertsHost(context, [&](util::Host& host) -> Status {
    const bool text = output == "text";
    auto cluster = LoadCertsClusterConfig(options, host, context, text ? &context.out : nullptr,
                                          "check-expiration");
    if (!cluster) return cluster.error();
    KKADM_RETURN_IF_ERROR(CheckCertDirExists(host.fs, cluster->certificates_dir));
    const phases::certs::RenewalEnv env{.cluster = *cluster, .fs = host.fs, .clock = host.clock};
    auto info = phases::certs::ReadExpirationInfo(env);
    if (!info) return info.error();
    const auto now = host.clock.Now();
    if (text) {
      context.out << phases::certs::ExpirationText(*info, now);
      // Text mode only: the json/yaml document keeps kubeadm's schema.
      if (auto warning = phases::certs::KubeletRotationWarning(env, now)) {
        context.err << '\n' << *warning << '\n';
      }
    } else if (output == "json") {
      context.out << phases::certs::ExpirationDocument(*info, now).dump(4) << '\n';
    } else {
      context.out << util::yaml::Emit(
          nlohmann::json(phases::certs::ExpirationDocument(*info, now)));
    }
    return Status();
  });
}

void AddCheckExpirationCommand(CLI::App& certs, CommandContext& context) {
  auto* cmd = certs.add_subcommand("check-expiration",
                                   "Check certificates expiration for a Kubernetes cluster");
  auto options = std::make_shared<CertsConfigOptions>();
  auto output = std::make_shared<std::string>("text");
  AddCertsConfigFlags(*cmd, *options);
  cmd->add_option("-o,--output", *output, "Output format. One of: text|json|yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  cmd->callback([&context, options, output] {
    context.status = CheckExpiration(*options, *output, context);
  });
}

void AddCertificateKeyCommand(CLI::App& certs, CommandContext& context) {
  auto* cmd = certs.add_subcommand("certificate-key", "Generate certificate keys");
  cmd->callback([&context] {
    auto key = util::CreateCertificateKey();
    if (!key) {
      context.status = key.error();
      return;
    }
    context.out << *key << '\n';
  });
}

}  // namespace

Result<config::ClusterConfiguration> LoadCertsClusterConfig(
    const CertsConfigOptions& options, util::Host& host, CommandContext& context,
    std::ostream* info, const std::string& prefix, config::Timeouts* timeouts) {
  Result<config::ClusterConfiguration> cluster = NotFound("no configuration yet");
  if (options.config_path.empty() && host.fs.Exists(options.kubeconfig)) {
    cluster = FromCluster(options, host, info, prefix);
    if (cluster && info != nullptr) *info << '\n';
    if (!cluster && info != nullptr) {
      *info << fmt::format(
          "[{}] Error reading configuration from the Cluster. Falling back to default "
          "configuration\n\n",
          prefix);
    }
  }
  if (!cluster) cluster = FromFileOrDefaults(options, context, timeouts);
  if (cluster && options.cert_dir) cluster->certificates_dir = *options.cert_dir;
  return cluster;
}

Status CheckCertDirExists(const util::FileSystem& fs, const std::string& cert_dir) {
  if (fs.Exists(cert_dir)) return Status();
  return FailedPrecondition(fmt::format(
      "no PKI at {}: the certificate directory does not exist (see --cert-dir and --rootfs)",
      fs.HostPath(cert_dir)));
}

void AddCertsCommand(CLI::App& root, CommandContext& context) {
  auto* certs =
      root.add_subcommand("certs", "Commands related to handling kubernetes certificates");
  certs->alias("certificates");
  certs->require_subcommand(1);
  AddCertsRenewCommand(*certs, context);
  AddCheckExpirationCommand(*certs, context);
  AddCertificateKeyCommand(*certs, context);
  AddCertsGenerateCsrCommand(*certs, context);
}

}  // namespace kkadm::cmd
