// Decoding of ClusterConfiguration (v1beta3 and v1beta4).
#include <map>

#include "app/config/decode.h"

namespace kkadm::config {
namespace {

void DecodeVolumes(FieldReader& parent, std::vector<HostPathMount>& out) {
  const Json* list = parent.Array("extraVolumes");
  if (!list) return;
  for (size_t i = 0; i < list->size(); ++i) {
    std::string path = Indexed(parent.Path("extraVolumes"), i);
    if (!(*list)[i].is_object())
      return parent.context().Invalid(path, ValueText((*list)[i]), "must be an object");
    FieldReader item((*list)[i], path, parent.context());
    HostPathMount m;
    item.String("name", m.name);
    item.String("hostPath", m.host_path);
    item.String("mountPath", m.mount_path);
    item.Bool("readOnly", m.read_only);
    item.String("pathType", m.path_type);
    item.Finish();
    out.push_back(std::move(m));
  }
}

// Reads the keys every control-plane component has; the caller reads its own extras and finishes.
void DecodeComponentFields(FieldReader& reader, ControlPlaneComponent& out) {
  reader.Args("extraArgs", out.extra_args);
  DecodeVolumes(reader, out.extra_volumes);
  if (reader.context().v1beta4()) DecodeEnvs(reader, "extraEnvs", out.extra_envs);
}

void DecodeComponent(FieldReader& parent, const char* key, ControlPlaneComponent& out) {
  const Json* obj = parent.Object(key);
  if (!obj) return;
  FieldReader reader(*obj, parent.Path(key), parent.context());
  DecodeComponentFields(reader, out);
  reader.Finish();
}

void DecodeAPIServer(FieldReader& parent, DecodedCluster& out) {
  const Json* obj = parent.Object("apiServer");
  if (!obj) return;
  FieldReader reader(*obj, parent.Path("apiServer"), parent.context());
  DecodeComponentFields(reader, out.cfg.api_server.component);
  reader.StringList("certSANs", out.cfg.api_server.cert_sans);
  if (!reader.context().v1beta4())
    reader.OptionalDuration("timeoutForControlPlane", out.timeout_for_control_plane);
  reader.Finish();
}

void DecodeEtcd(FieldReader& parent, Etcd& out) {
  const Json* obj = parent.Object("etcd");
  if (!obj) return;
  FieldReader etcd(*obj, parent.Path("etcd"), parent.context());
  if (const Json* local = etcd.Object("local")) {
    FieldReader r(*local, etcd.Path("local"), etcd.context());
    LocalEtcd l;
    r.String("imageRepository", l.image_repository);
    r.String("imageTag", l.image_tag);
    r.String("dataDir", l.data_dir);
    r.Args("extraArgs", l.extra_args);
    if (r.context().v1beta4()) DecodeEnvs(r, "extraEnvs", l.extra_envs);
    r.StringList("serverCertSANs", l.server_cert_sans);
    r.StringList("peerCertSANs", l.peer_cert_sans);
    r.Finish();
    out.local = std::move(l);
  }
  if (const Json* external = etcd.Object("external")) {
    FieldReader r(*external, etcd.Path("external"), etcd.context());
    ExternalEtcd e;
    r.StringList("endpoints", e.endpoints);
    r.String("caFile", e.ca_file);
    r.String("certFile", e.cert_file);
    r.String("keyFile", e.key_file);
    r.Finish();
    out.external = std::move(e);
  }
  etcd.Finish();
}

void DecodeNetworking(FieldReader& parent, Networking& out) {
  const Json* obj = parent.Object("networking");
  if (!obj) return;
  FieldReader r(*obj, parent.Path("networking"), parent.context());
  r.String("serviceSubnet", out.service_subnet);
  r.String("podSubnet", out.pod_subnet);
  r.String("dnsDomain", out.dns_domain);
  r.Finish();
}

void DecodeDNSAndProxy(FieldReader& parent, ClusterConfiguration& out) {
  if (const Json* dns = parent.Object("dns")) {
    FieldReader r(*dns, parent.Path("dns"), parent.context());
    r.String("imageRepository", out.dns.image_repository);
    r.String("imageTag", out.dns.image_tag);
    if (r.context().v1beta4()) r.Bool("disabled", out.dns.disabled);
    r.Finish();
  }
  if (!parent.context().v1beta4()) return;
  if (const Json* proxy = parent.Object("proxy")) {
    FieldReader r(*proxy, parent.Path("proxy"), parent.context());
    r.Bool("disabled", out.proxy.disabled);
    r.Finish();
  }
}

void DecodeFeatureGates(FieldReader& parent, std::map<std::string, bool>& out) {
  const Json* gates = parent.Object("featureGates");
  if (!gates) return;
  for (const auto& [name, value] : gates->items()) {
    if (!value.is_boolean()) {
      return parent.context().Invalid(parent.Path("featureGates") + "." + name, ValueText(value),
                                      "must be a boolean");
    }
    out[name] = value.get<bool>();
  }
}

void DecodeEncryption(FieldReader& parent, EncryptionAlgorithm& out) {
  static const std::map<std::string, EncryptionAlgorithm> kAlgorithms = {
      {"RSA-2048", EncryptionAlgorithm::kRsa2048},
      {"RSA-3072", EncryptionAlgorithm::kRsa3072},
      {"RSA-4096", EncryptionAlgorithm::kRsa4096},
      {"ECDSA-P256", EncryptionAlgorithm::kEcdsaP256},
      {"ECDSA-P384", EncryptionAlgorithm::kEcdsaP384}};
  std::string text;
  parent.String("encryptionAlgorithm", text);
  if (text.empty()) return;
  auto it = kAlgorithms.find(text);
  if (it == kAlgorithms.end()) {
    return parent.context().Invalid(
        parent.Path("encryptionAlgorithm"), text,
        "must be one of RSA-2048, RSA-3072, RSA-4096, ECDSA-P256, ECDSA-P384");
  }
  out = it->second;
}

}  // namespace

DecodedCluster DecodeClusterConfiguration(const Json& doc, DecodeContext& context) {
  DecodedCluster out;
  ClusterConfiguration& cfg = out.cfg;
  FieldReader r(doc, "", context);
  r.Skip("apiVersion");
  r.Skip("kind");
  DecodeEtcd(r, cfg.etcd);
  DecodeNetworking(r, cfg.networking);
  r.String("kubernetesVersion", cfg.kubernetes_version);
  r.String("controlPlaneEndpoint", cfg.control_plane_endpoint);
  DecodeAPIServer(r, out);
  DecodeComponent(r, "controllerManager", cfg.controller_manager);
  DecodeComponent(r, "scheduler", cfg.scheduler);
  DecodeDNSAndProxy(r, cfg);
  r.String("certificatesDir", cfg.certificates_dir);
  r.String("imageRepository", cfg.image_repository);
  DecodeFeatureGates(r, cfg.feature_gates);
  r.String("clusterName", cfg.cluster_name);
  if (context.v1beta4()) {
    DecodeEncryption(r, cfg.encryption_algorithm);
    r.Duration("certificateValidityPeriod", cfg.certificate_validity_period);
    r.Duration("caCertificateValidityPeriod", cfg.ca_certificate_validity_period);
  }
  r.Finish();
  return out;
}

}  // namespace kkadm::config
