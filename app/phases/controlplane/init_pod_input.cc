// StaticPodInput for `kkadm init` (see init_pod_input.h).
#include "app/phases/controlplane/init_pod_input.h"

#include "app/util/environment.h"

namespace kkadm::phases {

StaticPodInput StaticPodInputFromConfig(const config::InitConfiguration& cfg,
                                        const util::FileSystem& fs, bool external_ca) {
  return StaticPodInput{
      .cluster = &cfg.cluster,
      .endpoint = cfg.local_api_endpoint,
      .node_name = cfg.node_registration.name,
      .image_pull_policy = cfg.node_registration.image_pull_policy,
      .health_check_timeout = cfg.timeouts.control_plane_component_health_check,
      .external_ca = external_ca,
      .environment = util::ProcessEnvironment(),
      .fs = &fs,
  };
}

StaticPodInput StaticPodInputFromInit(const InitData& data) {
  return StaticPodInputFromConfig(data.cfg, data.host->fs, data.external_ca);
}

}  // namespace kkadm::phases
