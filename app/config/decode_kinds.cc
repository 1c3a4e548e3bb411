// Decoding of InitConfiguration, JoinConfiguration and ResetConfiguration.
#include "app/config/decode.h"

namespace kkadm::config {
namespace {

void DecodePatches(FieldReader& parent, std::string& directory) {
  const Json* obj = parent.Object("patches");
  if (!obj) return;
  FieldReader r(*obj, parent.Path("patches"), parent.context());
  r.String("directory", directory);
  r.Finish();
}

void DecodeBootstrapTokenDiscovery(FieldReader& parent, Discovery& out) {
  const Json* obj = parent.Object("bootstrapToken");
  if (!obj) return;
  FieldReader r(*obj, parent.Path("bootstrapToken"), parent.context());
  BootstrapTokenDiscovery d;
  r.String("token", d.token);
  r.String("apiServerEndpoint", d.api_server_endpoint);
  r.StringList("caCertHashes", d.ca_cert_hashes);
  r.Bool("unsafeSkipCAVerification", d.unsafe_skip_ca_verification);
  r.Finish();
  out.bootstrap_token = std::move(d);
}

void DecodeDiscovery(FieldReader& parent, JoinConfiguration& out) {
  const Json* obj = parent.Object("discovery");
  if (!obj) return;
  FieldReader r(*obj, parent.Path("discovery"), parent.context());
  DecodeBootstrapTokenDiscovery(r, out.discovery);
  if (const Json* file = r.Object("file")) {
    FieldReader f(*file, r.Path("file"), r.context());
    FileDiscovery fd;
    f.String("kubeConfigPath", fd.kube_config_path);
    f.Finish();
    out.discovery.file = std::move(fd);
  }
  r.String("tlsBootstrapToken", out.discovery.tls_bootstrap_token);
  if (!r.context().v1beta4()) r.Duration("timeout", out.timeouts.discovery);
  r.Finish();
}

void DecodeJoinControlPlane(FieldReader& parent, JoinConfiguration& out) {
  const Json* obj = parent.Object("controlPlane");
  if (!obj) return;
  FieldReader r(*obj, parent.Path("controlPlane"), parent.context());
  JoinControlPlane cp;
  DecodeAPIEndpoint(r, "localAPIEndpoint", cp.local_api_endpoint);
  r.String("certificateKey", cp.certificate_key);
  r.Finish();
  out.control_plane = std::move(cp);
}

// The fields InitConfiguration and JoinConfiguration share after their own: skipPhases, patches,
// and v1beta4's dryRun and timeouts.
template <class Config>
void DecodeRunFields(FieldReader& r, Config& cfg) {
  r.StringList("skipPhases", cfg.skip_phases);
  DecodePatches(r, cfg.patches_directory);
  if (r.context().v1beta4()) {
    r.Bool("dryRun", cfg.dry_run);
    DecodeTimeouts(r, cfg.timeouts);
  }
}

}  // namespace

InitConfiguration DecodeInitConfiguration(const Json& doc, DecodeContext& context) {
  InitConfiguration cfg;
  FieldReader r(doc, "", context);
  r.Skip("apiVersion");
  r.Skip("kind");
  DecodeBootstrapTokens(r, cfg.bootstrap_tokens);
  DecodeNodeRegistration(r, "nodeRegistration", cfg.node_registration);
  DecodeAPIEndpoint(r, "localAPIEndpoint", cfg.local_api_endpoint);
  r.String("certificateKey", cfg.certificate_key);
  DecodeRunFields(r, cfg);
  r.Finish();
  return cfg;
}

JoinConfiguration DecodeJoinConfiguration(const Json& doc, DecodeContext& context) {
  JoinConfiguration cfg;
  FieldReader r(doc, "", context);
  r.Skip("apiVersion");
  r.Skip("kind");
  DecodeNodeRegistration(r, "nodeRegistration", cfg.node_registration);
  r.String("caCertPath", cfg.ca_cert_path);
  DecodeDiscovery(r, cfg);
  DecodeJoinControlPlane(r, cfg);
  DecodeRunFields(r, cfg);
  r.Finish();
  return cfg;
}

ResetConfiguration DecodeResetConfiguration(const Json& doc, DecodeContext& context) {
  ResetConfiguration cfg;
  FieldReader r(doc, "", context);
  r.Skip("apiVersion");
  r.Skip("kind");
  r.String("certificatesDir", cfg.certificates_dir);
  r.Bool("cleanupTmpDir", cfg.cleanup_tmp_dir);
  r.String("criSocket", cfg.cri_socket);
  r.Bool("dryRun", cfg.dry_run);
  r.Bool("force", cfg.force);
  r.StringList("ignorePreflightErrors", cfg.ignore_preflight_errors);
  r.StringList("skipPhases", cfg.skip_phases);
  r.StringList("unmountFlags", cfg.unmount_flags);
  DecodeTimeouts(r, cfg.timeouts);
  r.Finish();
  return cfg;
}

}  // namespace kkadm::config
