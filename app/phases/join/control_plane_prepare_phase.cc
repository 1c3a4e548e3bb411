// The `control-plane-prepare` phase of `kkadm join` (kubeadm's phases/join/controlplaneprepare.go):
// download-certs, certs, kubeconfig, control-plane, each reading the discovered cluster.
#include "app/phases/join/control_plane_prepare_phase.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/phases/certs/certs.h"
#include "app/phases/controlplane/manifests.h"
#include "app/phases/controlplane/static_pod_input.h"
#include "app/phases/etcd/etcd_manifest.h"
#include "app/phases/join/kubelet_start_phase.h"
#include "app/phases/kubeconfig/kubeconfig_files.h"
#include "app/phases/uploadcerts/upload_certs.h"
#include "app/util/pki/key_pool.h"

namespace kkadm::phases {
namespace {

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
  auto cluster = data.access->Discovered();
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

Status RunDownloadCerts(JoinData& data) {
  if (!data.control_plane() || data.certificate_key().empty()) {
    spdlog::info("[download-certs] Skipping certs download");
    return Status::Ok();
  }
  auto cluster = data.access->Discovered();
  if (!cluster) return cluster.error();
  auto client = data.access->BootstrapClient();
  if (!client) return client.error().Wrap("unable to access the cluster");
  return DownloadCerts(**client, data.fs(), data.printer(), (*cluster)->init_cfg.cluster,
                       data.certificate_key())
      .Wrap("error downloading certs");
}

Status RunPrepareCerts(JoinData& data) {
  if (!data.control_plane()) return Status::Ok();
  auto cluster = data.access->Discovered();
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
  auto cluster = data.access->Discovered();
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
  auto cluster = data.access->Discovered();
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

namespace {

const std::vector<std::string> kDiscoveryFlags = {"api-server-endpoint",
                                                  "config",
                                                  "control-plane",
                                                  "discovery-file",
                                                  "discovery-token",
                                                  "discovery-token-ca-cert-hash",
                                                  "discovery-token-unsafe-skip-ca-verification",
                                                  "tls-bootstrap-token",
                                                  "token",
                                                  "dry-run"};

std::vector<std::string> With(std::vector<std::string> flags,
                              const std::vector<std::string>& more) {
  flags.insert(flags.end(), more.begin(), more.end());
  return flags;
}

workflow::Phase Subphase(const char* name, const char* description, std::function<Status()> run,
                         std::vector<std::string> flags, bool takes_endpoint = true) {
  workflow::Phase phase;
  phase.name = name;
  if (takes_endpoint) phase.args_usage = "[api-server-endpoint]";
  phase.description = description;
  phase.run = std::move(run);
  phase.inherit_flags = std::move(flags);
  return phase;
}

}  // namespace

workflow::Phase NewControlPlanePreparePhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "control-plane-prepare";
  phase.description = "Prepare the machine for serving a control plane";
  phase.example =
      "  # Prepares the machine for serving a control plane\n"
      "  kkadm join phase control-plane-prepare all";
  // Before the first file of the join is written (certificates), every patch must apply.
  phase.run = [&data] { return CheckControlPlaneJoinPatches(data); };
  phase.children = {
      Subphase(
          "download-certs",
          "Download certificates shared among control-plane nodes from the kubeadm-certs Secret",
          [&data] { return RunDownloadCerts(data); }, With(kDiscoveryFlags, {"certificate-key"})),
      Subphase(
          "certs", "Generate the certificates for the new control plane components",
          [&data] { return RunPrepareCerts(data); },
          With(kDiscoveryFlags, {"apiserver-advertise-address", "node-name"})),
      Subphase(
          "kubeconfig", "Generate the kubeconfig for the new control plane components",
          [&data] { return RunPrepareKubeconfigs(data); },
          With(kDiscoveryFlags, {"certificate-key"})),
      Subphase(
          "control-plane", "Generate the manifests for the new control plane components",
          [&data] { return RunPrepareControlPlane(data); },
          {"apiserver-advertise-address", "apiserver-bind-port", "config", "control-plane",
           "patches", "dry-run"},
          false),
  };
  return phase;
}

}  // namespace kkadm::phases
