// The `preflight` phase of `kkadm init`: the root check alone (fail-fast), then the control-plane
// node checks for init's configuration.
#include "app/phases/init/preflight_phase.h"

#include "app/phases/images/image_pull_check.h"
#include "app/phases/preflight/checks_system.h"
#include "app/phases/preflight/control_plane_checks.h"
#include "app/phases/preflight/run_checks.h"

namespace kkadm::phases {

preflight::CheckList InitNodeChecks(const InitData& data) {
  preflight::NodeCheckOptions options;
  options.manifest_dir = data.manifest_dir;
  options.cri.out = data.out;
  options.cri.socket_wait =
      preflight::CriSocketWait(data.cri_socket_wait, data.ignore_preflight_errors);
  options.cri.kubelet_cgroup_driver =
      preflight::KubeletCgroupDriver(data.cfg.component_configs.kubelet, "systemd");
  return preflight::InitNodeChecks(data.cfg, options);
}

Status RunInitPreflight(InitData& data) {
  util::Printer& out = data.printer();
  out.Line("preflight", "Running pre-flight checks");
  preflight::CheckList root;
  root.push_back(preflight::NewIsPrivilegedUserCheck());
  KKADM_RETURN_IF_ERROR(
      preflight::RunChecks(root, *data.host, data.ignore_preflight_errors, out, data.events));
  preflight::CheckList checks = InitNodeChecks(data);
  preflight::OwnWorkPlaces places;
  places.manifest_dir = data.manifest_dir;
  places.kubelet_kubeconfig = data.kubeconfig_dir + "/kubelet.conf";
  places.apiserver_port = data.cfg.local_api_endpoint.bind_port;
  preflight::LeaveOutChecksOfOwnWork(checks, data.own_work, places, out);
  KKADM_RETURN_IF_ERROR(
      preflight::RunChecks(checks, *data.host, data.ignore_preflight_errors, out, data.events));
  return images::RunPullImagesCheck(
      *data.host,
      images::ImagePullInputFor(data.cfg.node_registration, data.cfg.cluster, data.events),
      data.dry_run, data.ignore_preflight_errors, out);
}

workflow::Phase NewPreflightPhase(InitData& data) {
  // Fields are assigned one by one: designated initializers that skip members trip
  // -Wmissing-field-initializers.
  workflow::Phase phase;
  phase.name = "preflight";
  phase.description = "Run pre-flight checks";
  phase.long_description = "Run pre-flight checks for kkadm init.";
  phase.example =
      "  # Run pre-flight checks for kkadm init using a config file.\n"
      "  kkadm init phase preflight --config kubeadm-config.yaml";
  phase.run = [&data] { return RunInitPreflight(data); };
  phase.inherit_flags = {"config",
                         "ignore-preflight-errors",
                         "dry-run",
                         "node-name",
                         "cri-socket",
                         "cri-socket-wait",
                         "kubernetes-version",
                         "apiserver-advertise-address",
                         "apiserver-bind-port"};
  return phase;
}

}  // namespace kkadm::phases
