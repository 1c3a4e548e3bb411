// The `kubelet-start` phase of `kkadm join`: the discovered cluster's kubelet settings and TLS
// bootstrap identity for this node, handed to BootstrapKubelet.
#include "app/phases/join/kubelet_start_phase.h"

#include "app/phases/kubelet/kubelet_drop_ins.h"

namespace kkadm::phases {

KubeletStartInput JoinKubeletStartInput(const JoinData& data, const JoinCluster& cluster) {
  const config::InitConfiguration& init = cluster.init_cfg;
  // Workers register with their taints; a control-plane node gets them from mark-control-plane.
  return KubeletStartInput{.cluster = init.cluster,
                           .node = data.cfg.node_registration,
                           .kubelet_config = init.component_configs.kubelet,
                           .kubelet_dir = data.kubelet_dir,
                           .kubeconfig_dir = data.kubeconfig_dir,
                           .manifest_dir = data.manifest_dir,
                           .register_taints = !data.control_plane(),
                           .patches = data.patches};
}

KubeletBootstrap JoinKubeletBootstrap(const JoinData& data, const JoinCluster& cluster) {
  const config::Timeouts& t = data.cfg.timeouts;
  return KubeletBootstrap{
      .identity = cluster.tls_bootstrap,
      .ca_pem = cluster.ca_pem,
      .ca_cert_path = data.cfg.ca_cert_path,
      .bootstrap_kubeconfig = data.bootstrap_kubeconfig_path(),
      .kubelet_kubeconfig = data.kubelet_kubeconfig_path(),
      .healthz_url = KubeletHealthzUrl(cluster.init_cfg.component_configs.kubelet),
      .node_name = data.cfg.node_registration.name,
      .cri_socket = data.cfg.node_registration.cri_socket,
      .kubelet_health_check = t.kubelet_health_check,
      .tls_bootstrap = t.tls_bootstrap,
      .api_call = t.kubernetes_api_call,
      .events = data.events,
  };
}

Status RunJoinKubeletStart(JoinData& data) {
  auto cluster = data.access->Discovered();
  if (!cluster) return cluster.error();
  return BootstrapKubelet(*data.host, data.printer(), JoinKubeletStartInput(data, **cluster),
                          JoinKubeletBootstrap(data, **cluster), *data.kubelet_bootstrap);
}

workflow::Phase NewJoinKubeletStartPhase(JoinData& data) {
  workflow::Phase phase;
  phase.name = "kubelet-start";
  phase.args_usage = "[api-server-endpoint]";
  phase.description = "Write kubelet settings, certificates and (re)start the kubelet";
  phase.long_description =
      "Write a file with KubeletConfiguration and an environment file with node specific kubelet "
      "settings, and then (re)start kubelet.";
  phase.run = [&data] { return RunJoinKubeletStart(data); };
  // Before control-plane-prepare writes anything; patches need the discovered cluster, which
  // control-plane-prepare's own check reads.
  phase.check = [&data] { return CheckKubeletDropIns(data.fs()); };
  phase.inherit_flags = {"api-server-endpoint",
                         "config",
                         "cri-socket",
                         "node-name",
                         "discovery-file",
                         "discovery-token",
                         "discovery-token-ca-cert-hash",
                         "discovery-token-unsafe-skip-ca-verification",
                         "tls-bootstrap-token",
                         "token",
                         "patches",
                         "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
