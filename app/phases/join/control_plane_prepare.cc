// control-plane-prepare: download-certs, certs, kubeconfig, control-plane.
#include "app/phases/join/control_plane_prepare.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/phases/certs/certs.h"
#include "app/phases/controlplane/init_pod_input.h"
#include "app/phases/controlplane/manifests.h"
#include "app/phases/etcd/etcd_manifest.h"
#include "app/phases/join/kubelet_bootstrap.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/phases/uploadcerts/upload_certs.h"
#include "app/util/pki/key_pool.h"

namespace kkadm::phases {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// ca.crt without ca.key: the cluster's CA is external, nothing can be signed here.
bool ExternalCa(const JoinData& data, const config::ClusterConfiguration& cluster) {
  const std::string ca = cluster.certificates_dir + "/ca";
  return data.host->fs.Exists(ca + ".crt") && !data.host->fs.Exists(ca + ".key");
}

constexpr const char* kControlPlaneComponents[] = {kKubeAPIServer, kKubeControllerManager,
                                                   kKubeScheduler};

Status CheckControlPlanePodPatches(const util::patches::Patcher& patches,
                                   const StaticPodInput& input) {
  for (const char* component : kControlPlaneComponents) {
    KKADM_RETURN_IF_ERROR(CheckPodPatches(patches, component,
                                          [&] { return BuildControlPlanePod(component, input); }));
  }
  return Status::Ok();
}

}  // namespace

Status CheckControlPlaneJoinPatches(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  const config::InitConfiguration& cfg = (*cluster)->init_cfg;
  const StaticPodInput input =
      StaticPodInputFromConfig(cfg, data.fs(), ExternalCa(data, cfg.cluster));
  KKADM_RETURN_IF_ERROR(CheckControlPlanePodPatches(data.patches, input));
  if (cfg.cluster.etcd.local) {
    const EtcdMember self{input.node_name, EtcdPeerURL(cfg.local_api_endpoint)};
    KKADM_RETURN_IF_ERROR(
        CheckPodPatches(data.patches, kEtcd, [&] { return BuildEtcdPod(input, {self}); }));
  }
  return CheckKubeletConfigPatches(*data.host, JoinKubeletStartInput(data, **cluster));
}

Status DownloadCerts(util::KubeClient& client, util::FileSystem& fs, util::Printer& out,
                     const config::ClusterConfiguration& cluster,
                     const std::string& certificate_key) {
  out.Line(
      "download-certs",
      fmt::format("Downloading the certificates in Secret \"{}\" in the \"kube-system\" Namespace",
                  kKubeadmCertsSecret));
  auto secret =
      client.Get(std::string("/api/v1/namespaces/kube-system/secrets/") + kKubeadmCertsSecret);
  if (!secret && secret.error().code() == StatusCode::kNotFound) {
    return NotFound(
        fmt::format("error downloading the secret: Secret \"{}\" was not found in the "
                    "\"kube-system\" Namespace. "
                    "This Secret might have expired. Please, run `kkadm init phase upload-certs "
                    "--upload-certs` "
                    "on a control plane to generate a new one",
                    kKubeadmCertsSecret));
  }
  if (!secret) return secret.error().Wrap("error downloading the secret");
  auto files = DecryptKubeadmCerts(*secret, certificate_key);
  if (!files) return files.error().Wrap("error decoding secret data with provided key");
  out.Line("download-certs",
           fmt::format("Saving the certificates to the folder: \"{}\"", cluster.certificates_dir));
  const auto paths = CertsToTransfer(cluster);
  for (const auto& [key, content] : *files) {
    auto path = paths.find(key);
    if (path == paths.end()) {
      spdlog::warn("[download-certs] ignoring unknown entry \"{}\" of Secret {}", key,
                   kKubeadmCertsSecret);
      continue;
    }
    const unsigned mode = EndsWith(key, ".key") ? 0600 : 0644;
    KKADM_RETURN_IF_ERROR(
        fs.WriteFile(path->second, content, mode).Wrap("writing " + path->second));
  }
  return Status::Ok();
}

Status RunDownloadCerts(JoinData& data) {
  if (!data.control_plane() || data.certificate_key().empty()) {
    spdlog::info("[download-certs] Skipping certs download");
    return Status::Ok();
  }
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  auto client = data.bootstrap_client();
  if (!client) return client.error().Wrap("unable to access the cluster");
  return DownloadCerts(**client, data.fs(), data.printer(), (*cluster)->init_cfg.cluster,
                       data.certificate_key())
      .Wrap("error downloading certs");
}

Status RunPrepareCerts(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  const config::InitConfiguration& cfg = (*cluster)->init_cfg;
  data.printer().Line(
      "certs", fmt::format("Using certificateDir folder \"{}\"", cfg.cluster.certificates_dir));
  util::pki::KeyPool keys;
  certs::CertsEnv env{
      cfg, data.fs(), data.printer(), data.host->clock, ExternalCa(data, cfg.cluster), &keys};
  return certs::CreatePKIAssets(env);
}

Status RunPrepareKubeconfigs(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  const config::InitConfiguration& cfg = (*cluster)->init_cfg;
  data.printer().Line("kubeconfig", "Generating kubeconfig files");
  data.printer().Line("kubeconfig",
                      fmt::format("Using kubeconfig folder \"{}\"", data.kubeconfig_dir));
  kubeconfig::KubeconfigEnv env{cfg, data.fs(), data.printer(), data.host->clock,
                                data.kubeconfig_dir};
  const bool external = ExternalCa(data, cfg.cluster);
  // The kubelet's own kubeconfig comes from its TLS bootstrap, not from here.
  for (const char* file :
       {kubeconfig::kAdminConf, kubeconfig::kControllerManagerConf, kubeconfig::kSchedulerConf}) {
    Status s = external ? kubeconfig::ValidateKubeconfigForExternalCA(file, env)
                        : kubeconfig::CreateKubeconfigFile(file, env);
    KKADM_RETURN_IF_ERROR(s.Wrap("error generating kubeconfig files"));
  }
  return Status::Ok();
}

Status RunPrepareControlPlane(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  const config::InitConfiguration& cfg = (*cluster)->init_cfg;
  data.printer().Line("control-plane",
                      fmt::format("Using manifest folder \"{}\"", data.manifest_dir));
  const StaticPodInput input =
      StaticPodInputFromConfig(cfg, data.fs(), ExternalCa(data, cfg.cluster));
  KKADM_RETURN_IF_ERROR(CheckControlPlanePodPatches(data.patches, input));
  for (const char* component : kControlPlaneComponents) {
    data.printer().Line("control-plane",
                        fmt::format("Creating static Pod manifest for \"{}\"", component));
    KKADM_RETURN_IF_ERROR(CreateControlPlaneManifest(component, input, data.fs(), data.manifest_dir,
                                                     PatcherFor(data.patches)));
  }
  return Status::Ok();
}

}  // namespace kkadm::phases
