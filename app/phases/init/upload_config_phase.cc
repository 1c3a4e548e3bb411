// upload-config phase adapter.
#include "app/phases/init/upload_config_phase.h"

#include "app/phases/kubelet/kubelet_config.h"
#include "app/phases/uploadconfig/upload_config.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

Status RunKubeadm(InitData& data) {
  auto client = data.access->AdminClient();
  if (!client) return client.error();
  if (!data.cluster_config_yaml) return Internal("no ClusterConfiguration encoder was wired");
  return UploadKubeadmConfig(**client, data.printer(), data.cluster_config_yaml())
      .Wrap("error uploading the kubeadm ClusterConfiguration");
}

Status RunKubelet(InitData& data) {
  auto client = data.access->AdminClient();
  if (!client) return client.error();
  auto doc = BuildKubeletConfiguration(
      {.cluster = data.cfg.cluster,
       .user = data.cfg.component_configs.kubelet,
       .static_pod_path = data.manifest_dir,
       .systemd_resolv_conf = data.fs().Exists(std::string(kSystemdResolvConf))});
  if (!doc) return doc.error();
  KKADM_RETURN_IF_ERROR(UploadKubeletConfig(**client, data.printer(), util::yaml::Emit(*doc))
                            .Wrap("error creating kubelet configuration ConfigMap"));
  return AnnotateCriSocket(**client, data.host->clock, data.cfg.node_registration.name,
                           data.cfg.node_registration.cri_socket,
                           data.cfg.timeouts.kubernetes_api_call);
}

workflow::Phase UploadConfigChild(const std::string& name, std::string description,
                                  std::string long_description, std::string example,
                                  std::function<Status()> run) {
  workflow::Phase phase;
  phase.name = name;
  phase.description = std::move(description);
  phase.long_description = std::move(long_description);
  phase.example = std::move(example);
  phase.run = std::move(run);
  phase.inherit_flags = {"config", "kubeconfig", "dry-run"};
  return phase;
}

}  // namespace

workflow::Phase NewUploadConfigPhase(InitData& data) {
  workflow::Phase phase;
  phase.name = "upload-config";
  phase.aliases = {"uploadconfig"};
  phase.description = "Upload the kubeadm and kubelet configuration to a ConfigMap";
  phase.long_description = "Upload the kubeadm and kubelet configuration to a ConfigMap";
  phase.children.push_back(UploadConfigChild(
      "kubeadm", "Upload the kubeadm ClusterConfiguration to a ConfigMap",
      "Upload the kubeadm ClusterConfiguration to a ConfigMap called kubeadm-config in the "
      "kube-system namespace. This enables correct configuration of system components and a "
      "seamless user experience when upgrading.\n\nAlternatively, you can use kkadm config.",
      "  # upload the configuration of your cluster\n"
      "  kkadm init phase upload-config kubeadm --config=myConfig.yaml",
      [&data] { return RunKubeadm(data); }));
  phase.children.push_back(UploadConfigChild(
      "kubelet", "Upload the kubelet component config to a ConfigMap",
      "Upload the kubelet configuration extracted from the kubeadm InitConfiguration object to a "
      "kubelet-config ConfigMap in the cluster",
      "  # Upload the kubelet configuration from the kubeadm Config file to a ConfigMap in the "
      "cluster.\n  kkadm init phase upload-config kubelet --config kubeadm.yaml",
      [&data] { return RunKubelet(data); }));
  phase.children.back().inherit_flags.push_back("cri-socket");
  return phase;
}

}  // namespace kkadm::phases
