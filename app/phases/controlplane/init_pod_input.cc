// StaticPodInput for `kkadm init` (see init_pod_input.h).
#include "app/phases/controlplane/init_pod_input.h"

#include "app/util/environment.h"

namespace kkadm::phases {

StaticPodInput StaticPodInputFromInit(const InitData& data) {
  return StaticPodInput{
      .cluster = &data.cfg.cluster,
      .endpoint = data.cfg.local_api_endpoint,
      .node_name = data.cfg.node_registration.name,
      .image_pull_policy = data.cfg.node_registration.image_pull_policy,
      .health_check_timeout = data.cfg.timeouts.control_plane_component_health_check,
      .external_ca = data.external_ca,
      .environment = util::ProcessEnvironment(),
      .fs = &data.host->fs,
  };
}

}  // namespace kkadm::phases
