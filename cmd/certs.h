// `kkadm certs`: check-expiration, renew <name>|all, certificate-key and generate-csr (kubeadm's
// cmd/certs.go), over the node's PKI under --rootfs. Works with expired certificates and no API
// server: the cluster's configuration is read from --config, else from the kubeadm-config
// ConfigMap, else kubeadm's defaults.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "app/config/types.h"
#include "app/util/host.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct CommandContext;

// The flags every certs subcommand that reads the cluster's configuration shares.
struct CertsConfigOptions {
  std::string config_path;                                // --config
  std::optional<std::string> cert_dir;                    // --cert-dir, when given
  std::string kubeconfig = "/etc/kubernetes/admin.conf";  // --kubeconfig (node path)
};

// kubeadm's getInternalCfg: --config when given (defaulted and validated as init does); else the
// ClusterConfiguration of kube-system/kubeadm-config when --kubeconfig exists and the API server
// answers; else the defaults ("[<prefix>] Error reading configuration from the Cluster. Falling
// back to default configuration"). Progress lines go to `info` (null: none, as for json/yaml).
// --cert-dir, when given, overrides certificatesDir. `timeouts`, when given, gets the
// InitConfiguration's timeouts of --config (the defaults without one: the ConfigMap has none).
Result<config::ClusterConfiguration> LoadCertsClusterConfig(
    const CertsConfigOptions& options, util::Host& host, CommandContext& context,
    std::ostream* info, const std::string& prefix, config::Timeouts* timeouts = nullptr);

// FailedPrecondition "no PKI at <dir> ..." when the certificate directory does not exist.
Status CheckCertDirExists(const util::FileSystem& fs, const std::string& cert_dir);

void AddCertsCommand(CLI::App& root, CommandContext& context);

// `certs renew` and its subcommands (cmd/certs_renew.cc); `certs generate-csr`
// (cmd/certs_csr.cc).
void AddCertsRenewCommand(CLI::App& parent, CommandContext& context);
void AddCertsGenerateCsrCommand(CLI::App& parent, CommandContext& context);

}  // namespace kkadm::cmd
