// v1beta4 encoding through nlohmann::json (sorted keys, like Go's yaml marshalling) and util::yaml.
#include "app/config/encode.h"

#include "app/util/duration.h"
#include "app/util/rfc3339.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::config {
namespace {

using nlohmann::json;

constexpr const char* kApiVersion = "kubeadm.k8s.io/v1beta4";

std::string Text(const json& doc) { return util::yaml::Emit(doc); }

std::string Dur(Duration d) { return util::FormatDuration(d); }

void PutIf(json& obj, const char* key, const std::string& value) {
  if (!value.empty()) obj[key] = value;
}

void PutIf(json& obj, const char* key, const std::vector<std::string>& values) {
  if (!values.empty()) obj[key] = values;
}

json Args(const std::vector<Arg>& args) {
  json out = json::array();
  for (const Arg& a : args) out.push_back({{"name", a.name}, {"value", a.value}});
  return out;
}

json Envs(const std::vector<EnvVar>& envs) {
  json out = json::array();
  for (const EnvVar& e : envs) out.push_back({{"name", e.name}, {"value", e.value}});
  return out;
}

json Component(const ControlPlaneComponent& c) {
  json out = json::object();
  if (!c.extra_args.empty()) out["extraArgs"] = Args(c.extra_args);
  if (!c.extra_envs.empty()) out["extraEnvs"] = Envs(c.extra_envs);
  for (const HostPathMount& v : c.extra_volumes) {
    json vol = {{"name", v.name}, {"hostPath", v.host_path}, {"mountPath", v.mount_path}};
    if (v.read_only) vol["readOnly"] = true;
    PutIf(vol, "pathType", v.path_type);
    out["extraVolumes"].push_back(vol);
  }
  return out;
}

json EtcdJson(const Etcd& etcd) {
  json out = json::object();
  if (etcd.local) {
    const LocalEtcd& l = *etcd.local;
    json local = {{"dataDir", l.data_dir}};
    PutIf(local, "imageRepository", l.image_repository);
    PutIf(local, "imageTag", l.image_tag);
    if (!l.extra_args.empty()) local["extraArgs"] = Args(l.extra_args);
    if (!l.extra_envs.empty()) local["extraEnvs"] = Envs(l.extra_envs);
    PutIf(local, "serverCertSANs", l.server_cert_sans);
    PutIf(local, "peerCertSANs", l.peer_cert_sans);
    out["local"] = local;
  }
  if (etcd.external) {
    const ExternalEtcd& e = *etcd.external;
    out["external"] = {{"endpoints", e.endpoints},
                       {"caFile", e.ca_file},
                       {"certFile", e.cert_file},
                       {"keyFile", e.key_file}};
  }
  return out;
}

const char* AlgorithmName(EncryptionAlgorithm a) {
  switch (a) {
    case EncryptionAlgorithm::kRsa2048:
      return "RSA-2048";
    case EncryptionAlgorithm::kRsa3072:
      return "RSA-3072";
    case EncryptionAlgorithm::kRsa4096:
      return "RSA-4096";
    case EncryptionAlgorithm::kEcdsaP256:
      return "ECDSA-P256";
    case EncryptionAlgorithm::kEcdsaP384:
      return "ECDSA-P384";
  }
  return "RSA-2048";
}

json NodeRegistrationJson(const NodeRegistration& n) {
  json out = {{"imagePullPolicy", n.image_pull_policy}, {"imagePullSerial", n.image_pull_serial}};
  PutIf(out, "name", n.name);
  PutIf(out, "criSocket", n.cri_socket);
  PutIf(out, "ignorePreflightErrors", n.ignore_preflight_errors);
  if (!n.kubelet_extra_args.empty()) out["kubeletExtraArgs"] = Args(n.kubelet_extra_args);
  out["taints"] = nullptr;
  if (n.taints) {
    out["taints"] = json::array();
    for (const Taint& t : *n.taints) {
      json taint = {{"key", t.key}, {"effect", t.effect}};
      PutIf(taint, "value", t.value);
      out["taints"].push_back(taint);
    }
  }
  return out;
}

json EndpointJson(const APIEndpoint& e) {
  json out = json::object();
  PutIf(out, "advertiseAddress", e.advertise_address);
  if (e.bind_port != 0) out["bindPort"] = e.bind_port;
  return out;
}

json TimeoutsJson(const Timeouts& t) {
  return {{"controlPlaneComponentHealthCheck", Dur(t.control_plane_component_health_check)},
          {"kubeletHealthCheck", Dur(t.kubelet_health_check)},
          {"kubernetesAPICall", Dur(t.kubernetes_api_call)},
          {"etcdAPICall", Dur(t.etcd_api_call)},
          {"tlsBootstrap", Dur(t.tls_bootstrap)},
          {"discovery", Dur(t.discovery)},
          {"upgradeManifests", Dur(t.upgrade_manifests)}};
}

json TokenJson(const BootstrapToken& t) {
  json out = {{"token", t.Token()}, {"usages", t.usages}, {"groups", t.groups}};
  PutIf(out, "description", t.description);
  if (t.ttl) out["ttl"] = Dur(*t.ttl);
  if (t.expires) out["expires"] = util::FormatRfc3339(*t.expires);
  return out;
}

// Fields InitConfiguration and JoinConfiguration share.
void PutCommon(json& out, const std::vector<std::string>& skip_phases, const std::string& patches,
               bool dry_run, const Timeouts& timeouts) {
  PutIf(out, "skipPhases", skip_phases);
  if (!patches.empty()) out["patches"] = {{"directory", patches}};
  if (dry_run) out["dryRun"] = true;
  out["timeouts"] = TimeoutsJson(timeouts);
}

}  // namespace

json InitConfigurationJson(const InitConfiguration& cfg) {
  json out = {{"apiVersion", kApiVersion}, {"kind", "InitConfiguration"}};
  for (const BootstrapToken& t : cfg.bootstrap_tokens)
    out["bootstrapTokens"].push_back(TokenJson(t));
  out["nodeRegistration"] = NodeRegistrationJson(cfg.node_registration);
  out["localAPIEndpoint"] = EndpointJson(cfg.local_api_endpoint);
  PutIf(out, "certificateKey", cfg.certificate_key);
  PutCommon(out, cfg.skip_phases, cfg.patches_directory, cfg.dry_run, cfg.timeouts);
  return out;
}

std::string EncodeInitConfiguration(const InitConfiguration& cfg) {
  return Text(InitConfigurationJson(cfg));
}

json ClusterConfigurationJson(const ClusterConfiguration& cfg) {
  json out = {{"apiVersion", kApiVersion}, {"kind", "ClusterConfiguration"}};
  out["etcd"] = EtcdJson(cfg.etcd);
  out["networking"] = {{"serviceSubnet", cfg.networking.service_subnet},
                       {"dnsDomain", cfg.networking.dns_domain}};
  PutIf(out["networking"], "podSubnet", cfg.networking.pod_subnet);
  PutIf(out, "kubernetesVersion", cfg.kubernetes_version);
  PutIf(out, "controlPlaneEndpoint", cfg.control_plane_endpoint);
  out["apiServer"] = Component(cfg.api_server.component);
  PutIf(out["apiServer"], "certSANs", cfg.api_server.cert_sans);
  out["controllerManager"] = Component(cfg.controller_manager);
  out["scheduler"] = Component(cfg.scheduler);
  out["dns"] = json::object();
  PutIf(out["dns"], "imageRepository", cfg.dns.image_repository);
  PutIf(out["dns"], "imageTag", cfg.dns.image_tag);
  if (cfg.dns.disabled) out["dns"]["disabled"] = true;
  out["proxy"] = json::object();
  if (cfg.proxy.disabled) out["proxy"]["disabled"] = true;
  out["certificatesDir"] = cfg.certificates_dir;
  out["imageRepository"] = cfg.image_repository;
  if (!cfg.feature_gates.empty()) out["featureGates"] = cfg.feature_gates;
  out["clusterName"] = cfg.cluster_name;
  out["encryptionAlgorithm"] = AlgorithmName(cfg.encryption_algorithm);
  out["certificateValidityPeriod"] = Dur(cfg.certificate_validity_period);
  out["caCertificateValidityPeriod"] = Dur(cfg.ca_certificate_validity_period);
  return out;
}

std::string EncodeClusterConfiguration(const ClusterConfiguration& cfg) {
  return Text(ClusterConfigurationJson(cfg));
}

json JoinConfigurationJson(const JoinConfiguration& cfg) {
  json out = {
      {"apiVersion", kApiVersion}, {"kind", "JoinConfiguration"}, {"caCertPath", cfg.ca_cert_path}};
  out["nodeRegistration"] = NodeRegistrationJson(cfg.node_registration);
  json discovery = json::object();
  if (const auto& bt = cfg.discovery.bootstrap_token) {
    json b = {{"token", bt->token}, {"apiServerEndpoint", bt->api_server_endpoint}};
    PutIf(b, "caCertHashes", bt->ca_cert_hashes);
    if (bt->unsafe_skip_ca_verification) b["unsafeSkipCAVerification"] = true;
    discovery["bootstrapToken"] = b;
  }
  if (cfg.discovery.file)
    discovery["file"] = {{"kubeConfigPath", cfg.discovery.file->kube_config_path}};
  PutIf(discovery, "tlsBootstrapToken", cfg.discovery.tls_bootstrap_token);
  out["discovery"] = discovery;
  if (cfg.control_plane) {
    out["controlPlane"] = {
        {"localAPIEndpoint", EndpointJson(cfg.control_plane->local_api_endpoint)}};
    PutIf(out["controlPlane"], "certificateKey", cfg.control_plane->certificate_key);
  }
  PutCommon(out, cfg.skip_phases, cfg.patches_directory, cfg.dry_run, cfg.timeouts);
  return out;
}

std::string EncodeJoinConfiguration(const JoinConfiguration& cfg) {
  return Text(JoinConfigurationJson(cfg));
}

std::string EncodeResetConfiguration(const ResetConfiguration& cfg) {
  json out = {{"apiVersion", kApiVersion}, {"kind", "ResetConfiguration"}};
  if (cfg.cleanup_tmp_dir) out["cleanupTmpDir"] = true;
  PutIf(out, "certificatesDir", cfg.certificates_dir);
  PutIf(out, "criSocket", cfg.cri_socket);
  if (cfg.dry_run) out["dryRun"] = true;
  if (cfg.force) out["force"] = true;
  PutIf(out, "ignorePreflightErrors", cfg.ignore_preflight_errors);
  PutIf(out, "skipPhases", cfg.skip_phases);
  PutIf(out, "unmountFlags", cfg.unmount_flags);
  out["timeouts"] = TimeoutsJson(cfg.timeouts);
  return Text(out);
}

// kubeadm 1.32's SetDefaults_UpgradeConfiguration: apply and node renew certificates, upgrade etcd
// and pull IfNotPresent one image at a time; diff and plan have no defaults (Go prints them {}).
std::string EncodeUpgradeDefaults() {
  const json pulls = {{"certificateRenewal", true},
                      {"etcdUpgrade", true},
                      {"imagePullPolicy", "IfNotPresent"},
                      {"imagePullSerial", true}};
  json out = {{"apiVersion", kApiVersion},
              {"kind", "UpgradeConfiguration"},
              {"apply", pulls},
              {"node", pulls},
              {"diff", json::object()},
              {"plan", json::object()}};
  out["timeouts"] = TimeoutsJson(Timeouts{});
  return Text(out);
}

std::string EncodeComponentConfig(const nlohmann::json& doc) {
  if (doc.is_null()) return "";
  return Text(doc);
}

}  // namespace kkadm::config
