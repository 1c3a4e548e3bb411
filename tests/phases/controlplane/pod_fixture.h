// Shared set-up for the static Pod tests: an InitConfiguration as kkadm's defaulting leaves it and
// the StaticPodInput built from it.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/controlplane/static_pod_input.h"
#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::testing {

// True when `flag` is one of the words of `command`.
inline bool Has(const std::vector<std::string>& command, const std::string& flag) {
  return std::find(command.begin(), command.end(), flag) != command.end();
}

inline config::InitConfiguration DefaultInitConfig() {
  config::InitConfiguration cfg;
  cfg.cluster.kubernetes_version = "v1.32.0";
  cfg.cluster.etcd.local = config::LocalEtcd{};
  cfg.node_registration.name = "cp-1";
  cfg.local_api_endpoint.advertise_address = "192.0.2.10";
  return cfg;
}

// A StaticPodInput over `cfg` with no environment; `fs` decides which CA directories exist.
inline phases::StaticPodInput InputFor(const config::InitConfiguration& cfg,
                                       const util::FileSystem& fs) {
  return phases::StaticPodInput{
      .cluster = &cfg.cluster,
      .endpoint = cfg.local_api_endpoint,
      .node_name = cfg.node_registration.name,
      .image_pull_policy = cfg.node_registration.image_pull_policy,
      .health_check_timeout = cfg.timeouts.control_plane_component_health_check,
      .external_ca = false,
      .environment = {},
      .fs = &fs,
  };
}

}  // namespace kkadm::testing
