// The kubeconfig work: client certificates signed by the cluster CA, embedded in kubeconfig files.
#include "app/phases/kubeconfig/kubeconfig_files.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/phases/certs/cert_list.h"
#include "app/util/ascii.h"
#include "app/util/kubeconfig.h"
#include "app/util/net_rules.h"
#include "app/util/pki/pki_files.h"
#include "app/util/pki/sign.h"

namespace kkadm::phases::kubeconfig {
namespace {

util::pki::KeyType KeyType(const KubeconfigEnv& env) {
  return certs::KeyTypeFor(env.cfg.cluster.encryption_algorithm);
}

std::string PathOf(const KubeconfigEnv& env, const std::string& file_name) {
  return env.kubeconfig_dir + "/" + file_name;
}

// The CA certificate as kubeconfigs embed it: the first certificate of ca.crt, PEM-encoded.
Result<std::string> CaPem(const KubeconfigEnv& env) {
  auto ca = util::pki::LoadCert(env.fs, util::pki::CertPath(env.cert_dir(), "ca"));
  if (!ca) return ca.error().Wrap("couldn't create a kubeconfig; the CA files couldn't be loaded");
  return ca->ToPem();
}

// Loads an existing kubeconfig and checks that it trusts `ca_pem`; warns when its server differs.
Result<util::Kubeconfig> ValidateExisting(const std::string& path, const std::string& ca_pem,
                                          const std::string& server, const KubeconfigEnv& env) {
  auto data = env.fs.ReadFile(path);
  if (!data) return data.error();
  auto current = util::DecodeKubeconfig(*data);
  if (!current)
    return current.error().Wrap("failed to load kubeconfig file " + path +
                                " that already exists on disk");
  if (current->CurrentContext() == nullptr) {
    return FailedPrecondition("failed to find CurrentContext in Contexts of the kubeconfig file " +
                              path);
  }
  const util::KubeconfigCluster* cluster = current->CurrentCluster();
  if (cluster == nullptr) {
    return FailedPrecondition(
        "failed to find the given CurrentContext Cluster in Clusters of the kubeconfig file " +
        path);
  }
  std::string ca_current(util::TrimSpace(cluster->certificate_authority_data));
  if (ca_current.empty() && !cluster->certificate_authority.empty()) {
    auto file = env.fs.ReadFile(cluster->certificate_authority);
    if (file)
      ca_current = util::TrimSpace(*file);
    else
      spdlog::warn("failed to load CA cert from \"{}\" for kubeconfig \"{}\", {}",
                   cluster->certificate_authority, path, file.error().message());
  }
  if (ca_current != util::TrimSpace(ca_pem)) {
    return FailedPrecondition(
        fmt::format("a kubeconfig file \"{}\" exists already but has got the wrong CA cert", path));
  }
  if (cluster->server != server) {
    spdlog::warn(
        "a kubeconfig file \"{}\" exists already but has an unexpected API Server URL: expected: "
        "{}, got: {}",
        path, server, cluster->server);
  }
  return current;
}

}  // namespace

Result<std::string> BuildWithClientCert(const KubeconfigSpec& spec, KubeconfigEnv& env,
                                        util::Clock::TimePoint not_after) {
  auto ca = util::pki::LoadCertificateAuthority(env.fs, env.cert_dir(), "ca");
  if (!ca) return ca.error().Wrap("couldn't create a kubeconfig; the CA files couldn't be loaded");
  util::pki::CertConfig config;
  config.common_name = spec.client_name;
  config.organizations = spec.organizations;
  config.usages = {util::pki::ExtKeyUsage::kClientAuth};
  config.not_before = env.clock.Now() - std::chrono::minutes(5);
  config.not_after = not_after;
  auto key = env.keys ? env.keys->TakeOrGenerate(spec.file_name, KeyType(env))
                      : util::pki::PrivateKey::Generate(KeyType(env));
  if (!key) return key.error().Wrap("unable to create private key");
  auto cert = util::pki::SignLeaf(config, *key, ca->cert, ca->key);
  if (!cert)
    return cert.error().Wrap("failure while creating " + spec.client_name + " client certificate");
  auto key_pem = key->ToPem();
  if (!key_pem) return key_pem.error();
  util::Kubeconfig k =
      util::NewKubeconfigWithClientCert(spec.server, env.cfg.cluster.cluster_name, spec.client_name,
                                        ca->cert.ToPem(), *key_pem, cert->ToPem());
  return util::EncodeKubeconfig(k);
}

const std::vector<std::string>& KubeconfigFileNames() {
  static const std::vector<std::string> kNames = {kAdminConf, kSuperAdminConf, kKubeletConf,
                                                  kControllerManagerConf, kSchedulerConf};
  return kNames;
}

Result<std::string> LocalEndpoint(const config::APIEndpoint& local) {
  const std::string& address = local.advertise_address;
  auto ip = util::CanonicalIp(address);
  if (!ip) return InvalidArgument("invalid value `" + address + "` given for api.advertiseAddress");
  int port = local.bind_port;
  if (port < 1 || port > 65535) {
    return InvalidArgument(fmt::format(
        "invalid value \"{}\" given for api.bindPort: port must be between 1 and 65535", port));
  }
  return util::FormatServerUrl(*ip, std::to_string(port));
}

Result<std::string> LocalEndpoint(const config::InitConfiguration& cfg) {
  return LocalEndpoint(cfg.local_api_endpoint);
}

Result<std::string> ControlPlaneEndpoint(const std::string& control_plane_endpoint,
                                         const config::APIEndpoint& local) {
  auto local_url = LocalEndpoint(local);
  if (!local_url || control_plane_endpoint.empty()) return local_url;
  auto hp = util::ParseHostPort(control_plane_endpoint);
  if (!hp) {
    return hp.error().Wrap("invalid value \"" + control_plane_endpoint +
                           "\" given for controlPlaneEndpoint");
  }
  std::string bind_port = std::to_string(local.bind_port);
  if (hp->port.empty()) {
    hp->port = bind_port;
  } else if (hp->port != bind_port) {
    spdlog::warn(
        "[endpoint] WARNING: port specified in controlPlaneEndpoint overrides bindPort in the "
        "controlplane address");
  }
  return util::FormatServerUrl(hp->host, hp->port);
}

Result<std::string> ControlPlaneEndpoint(const config::InitConfiguration& cfg) {
  return ControlPlaneEndpoint(cfg.cluster.control_plane_endpoint, cfg.local_api_endpoint);
}

Result<KubeconfigSpec> GetKubeconfigSpec(const std::string& file_name,
                                         const config::InitConfiguration& cfg) {
  auto cpe = ControlPlaneEndpoint(cfg);
  if (!cpe) return cpe.error();
  auto local = LocalEndpoint(cfg);
  if (!local) return local.error();
  auto gate = cfg.cluster.feature_gates.find("ControlPlaneKubeletLocalMode");
  bool kubelet_local = gate != cfg.cluster.feature_gates.end() && gate->second;
  if (file_name == kAdminConf)
    return KubeconfigSpec{file_name, "kubernetes-admin", {"kubeadm:cluster-admins"}, *cpe};
  if (file_name == kSuperAdminConf) {
    return KubeconfigSpec{file_name, "kubernetes-super-admin", {"system:masters"}, *cpe};
  }
  if (file_name == kKubeletConf) {
    return KubeconfigSpec{file_name,
                          "system:node:" + cfg.node_registration.name,
                          {"system:nodes"},
                          kubelet_local ? *local : *cpe};
  }
  if (file_name == kControllerManagerConf)
    return KubeconfigSpec{file_name, "system:kube-controller-manager", {}, *local};
  if (file_name == kSchedulerConf)
    return KubeconfigSpec{file_name, "system:kube-scheduler", {}, *local};
  return NotFound("couldn't retrieve KubeConfigSpec for " + file_name);
}

Status CreateKubeconfigFile(const std::string& file_name, KubeconfigEnv& env) {
  auto spec = GetKubeconfigSpec(file_name, env.cfg);
  if (!spec) return spec.error();
  const std::string path = PathOf(env, file_name);
  if (env.fs.Exists(path)) {
    auto ca_pem = CaPem(env);
    if (!ca_pem) return ca_pem.error();
    auto existing = ValidateExisting(path, *ca_pem, spec->server, env);
    if (!existing) return existing.error();
    env.out.Line("kubeconfig", fmt::format("Using existing kubeconfig file: \"{}\"", path));
    return Status();
  }
  auto yaml = BuildWithClientCert(*spec, env,
                                  env.clock.Now() + env.cfg.cluster.certificate_validity_period);
  if (!yaml) return yaml.error();
  env.out.Line("kubeconfig", fmt::format("Writing \"{}\" kubeconfig file", file_name));
  return env.fs.WriteFile(path, *yaml, 0600)
      .Wrap("failed to save kubeconfig file \"" + path + "\" on disk");
}

Status CheckKubeconfigForExternalCA(const std::string& file_name, KubeconfigEnv& env) {
  auto spec = GetKubeconfigSpec(file_name, env.cfg);
  if (!spec) return spec.error();
  const std::string context = "the " + file_name + " file does not exists or it is not valid";
  auto ca = util::pki::LoadCert(env.fs, util::pki::CertPath(env.cert_dir(), "ca"));
  if (!ca) return ca.error().Wrap(context);
  auto existing = ValidateExisting(PathOf(env, file_name), ca->ToPem(), spec->server, env);
  if (!existing) return existing.error().Wrap(context);
  const util::KubeconfigUser* user = existing->CurrentUser();
  if (user != nullptr && !user->client_certificate_data.empty()) {
    auto client = util::pki::Certificate::ParsePem(user->client_certificate_data);
    if (!client) return client.error().Wrap(context);
    Status signed_by = client->VerifyChain({}, *ca, env.clock.Now());
    if (!signed_by.ok())
      return signed_by.Wrap(context + ": the client certificate is not signed by the CA");
  }
  return Status();
}

Status ValidateKubeconfigForExternalCA(const std::string& file_name, KubeconfigEnv& env) {
  KKADM_RETURN_IF_ERROR(CheckKubeconfigForExternalCA(file_name, env));
  env.out.Line("kubeconfig", "External CA mode: Using user provided " + file_name);
  return Status();
}

Status CheckKubeconfigsForExternalCA(KubeconfigEnv& env) {
  // kubeadm's ValidateKubeconfigsForExternalCA order: the local-endpoint files first.
  for (const char* name :
       {kControllerManagerConf, kSchedulerConf, kAdminConf, kSuperAdminConf, kKubeletConf}) {
    KKADM_RETURN_IF_ERROR(CheckKubeconfigForExternalCA(name, env));
  }
  return Status();
}

void PregenerateKeys(KubeconfigEnv& env) {
  std::vector<std::string> missing;
  for (const auto& name : KubeconfigFileNames()) {
    if (!env.fs.Exists(PathOf(env, name))) missing.push_back(name);
  }
  if (env.keys != nullptr) env.keys->Start(KeyType(env), missing);
}

}  // namespace kkadm::phases::kubeconfig
