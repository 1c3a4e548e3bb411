// `kkadm certs generate-csr`: keys and certificate signing requests for an external CA, with
// kubeadm's file names: "<cert dir>/<base>.key" + ".csr" for each leaf certificate, and
// "<kubeconfig dir>/<file>" (a kubeconfig holding only the client key) + "<file>.csr".
#include <fmt/format.h>

#include <memory>

#include "app/phases/certs/cert_list.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/util/kubeconfig.h"
#include "app/util/pki/csr.h"
#include "app/util/pki/pki_files.h"
#include "app/util/pki/san.h"
#include "cmd/certs.h"
#include "cmd/certs_host.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

struct CsrOptions {
  std::string config_path;
  std::optional<std::string> cert_dir;
  std::string kubeconfig_dir = "/etc/kubernetes";
};

struct KeyAndCsr {
  std::string key_pem;
  std::string csr_pem;
};

Result<KeyAndCsr> NewKeyAndCsr(const util::pki::CertConfig& config,
                               const config::InitConfiguration& cfg) {
  auto key =
      util::pki::PrivateKey::Generate(phases::certs::KeyTypeFor(cfg.cluster.encryption_algorithm));
  if (!key) return key.error();
  auto csr = util::pki::CreateCsrPem(config, *key);
  if (!csr) return csr.error();
  auto pem = key->ToPem();
  if (!pem) return pem.error();
  return KeyAndCsr{std::move(*pem), std::move(*csr)};
}

// Every file this command would write, so that an existing one stops it before it writes any.
std::vector<std::string> Targets(const CsrOptions& options, const config::InitConfiguration& cfg) {
  std::vector<std::string> paths;
  for (const phases::certs::CertSpec& spec : phases::certs::CertList()) {
    if (spec.IsCa()) continue;
    paths.push_back(util::pki::KeyPath(cfg.cluster.certificates_dir, spec.base_name));
    paths.push_back(cfg.cluster.certificates_dir + "/" + spec.base_name + ".csr");
  }
  for (const std::string& file : phases::kubeconfig::KubeconfigFileNames()) {
    paths.push_back(options.kubeconfig_dir + "/" + file);
    paths.push_back(options.kubeconfig_dir + "/" + file + ".csr");
  }
  return paths;
}

Status WriteLeafCsrs(const config::InitConfiguration& cfg, util::FileSystem& fs,
                     std::ostream& out) {
  const std::string& dir = cfg.cluster.certificates_dir;
  out << "generating keys and CSRs in " << dir << '\n';
  for (const phases::certs::CertSpec& spec : phases::certs::CertList()) {
    if (spec.IsCa()) continue;
    auto config = phases::certs::GetCertConfig(spec, cfg);
    if (!config) return config.error();
    // The SANs as the signed certificate would hold them (DNS names sorted, each once).
    util::pki::AltNames names{config->dns_names, config->ips};
    util::pki::RemoveDuplicateAltNames(names);
    config->dns_names = std::move(names.dns_names);
    config->ips = std::move(names.ips);
    auto made = NewKeyAndCsr(*config, cfg);
    if (!made) return made.error();
    KKADM_RETURN_IF_ERROR(
        fs.WriteFile(util::pki::KeyPath(dir, spec.base_name), made->key_pem, 0600));
    KKADM_RETURN_IF_ERROR(fs.WriteFile(dir + "/" + spec.base_name + ".csr", made->csr_pem, 0644));
    out << "  " << spec.base_name << '\n';
  }
  return Status();
}

Status WriteKubeconfigCsrs(const CsrOptions& options, const config::InitConfiguration& cfg,
                           util::FileSystem& fs, std::ostream& out) {
  out << "generating keys and CSRs in " << options.kubeconfig_dir << '\n';
  for (const std::string& file : phases::kubeconfig::KubeconfigFileNames()) {
    auto spec = phases::kubeconfig::GetKubeconfigSpec(file, cfg);
    if (!spec) return spec.error();
    util::pki::CertConfig config;
    config.common_name = spec->client_name;
    config.organizations = spec->organizations;
    auto made = NewKeyAndCsr(config, cfg);
    if (!made) return made.error();
    const util::Kubeconfig kubeconfig = util::NewKubeconfigWithClientCert(
        spec->server, cfg.cluster.cluster_name, spec->client_name, "", made->key_pem, "");
    const std::string path = options.kubeconfig_dir + "/" + file;
    KKADM_RETURN_IF_ERROR(fs.WriteFile(path, util::EncodeKubeconfig(kubeconfig), 0600));
    KKADM_RETURN_IF_ERROR(fs.WriteFile(path + ".csr", made->csr_pem, 0644));
    out << "  " << file << '\n';
  }
  return Status();
}

Status GenerateCsrs(const CsrOptions& options, CommandContext& context) {
  auto cfg = LoadInitForCerts(options.config_path, context);
  if (!cfg) return cfg.error();
  if (options.cert_dir) cfg->cluster.certificates_dir = *options.cert_dir;
  return WithCertsHost(context, [&](util::Host& host) -> Status {
    for (const std::string& path : Targets(options, *cfg)) {
      if (host.fs.Exists(path)) {
        return AlreadyExists(
            fmt::format("file already exists: {} (generate-csr never replaces a "
                        "key, a CSR or a kubeconfig)",
                        host.fs.HostPath(path)));
      }
    }
    KKADM_RETURN_IF_ERROR(WriteLeafCsrs(*cfg, host.fs, context.out));
    return WriteKubeconfigCsrs(options, *cfg, host.fs, context.out);
  });
}

}  // namespace

void AddCertsGenerateCsrCommand(CLI::App& parent, CommandContext& context) {
  auto* cmd =
      parent.add_subcommand("generate-csr", "Generate keys and certificate signing requests");
  auto options = std::make_shared<CsrOptions>();
  cmd->add_option("--config", options->config_path, "Path to a kubeadm configuration file");
  cmd->add_option_function<std::string>(
         "--cert-dir", [options](const std::string& dir) { options->cert_dir = dir; },
         "The path where to save the certificates")
      ->default_str("/etc/kubernetes/pki");
  cmd->add_option("--kubeconfig-dir", options->kubeconfig_dir,
                  "The path where to save the kubeconfig file")
      ->capture_default_str();
  cmd->callback([&context, options] { context.status = GenerateCsrs(*options, context); });
}

}  // namespace kkadm::cmd
