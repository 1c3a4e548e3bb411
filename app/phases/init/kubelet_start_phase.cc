// kubelet-start phase adapter: hands InitData to the kubelet-start work.
#include "app/phases/init/kubelet_start_phase.h"

#include "app/phases/kubelet/kubelet_start.h"

namespace kkadm::phases {

namespace {

KubeletStartInput InputOf(const InitData& data) {
  // Control-plane taints are set by mark-control-plane, not through the kubelet's flags.
  return KubeletStartInput{.cluster = data.cfg.cluster,
                           .node = data.cfg.node_registration,
                           .kubelet_config = data.cfg.component_configs.kubelet,
                           .kubelet_dir = data.kubelet_dir,
                           .kubeconfig_dir = data.kubeconfig_dir,
                           .manifest_dir = data.manifest_dir,
                           .register_taints = false,
                           .patches = data.patches};
}

}  // namespace

workflow::Phase NewKubeletStartPhase(InitData& data) {
  // Fields are assigned one by one: designated initializers that skip members trip
  // -Wmissing-field-initializers.
  workflow::Phase phase;
  phase.name = "kubelet-start";
  phase.description = "Write kubelet settings and (re)start the kubelet";
  phase.long_description =
      "Write a file with KubeletConfiguration and an environment file with node specific kubelet "
      "settings, and then (re)start kubelet.";
  phase.example =
      "  # Writes a dynamic environment file with kubelet flags from a InitConfiguration file.\n"
      "  kkadm init phase kubelet-start --config config.yaml";
  phase.run = [&data] { return RunKubeletStart(*data.host, data.printer(), InputOf(data)); };
  phase.check = [&data] { return CheckKubeletStart(*data.host, InputOf(data)); };
  phase.inherit_flags = {"config", "cri-socket", "node-name", "patches", "dry-run"};
  return phase;
}

}  // namespace kkadm::phases
