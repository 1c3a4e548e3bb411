// `kkadm config migrate`: a kubeadm.k8s.io/v1beta3 configuration file rewritten as the defaulted
// kubeadm.k8s.io/v1beta4 documents kubeadm's MigrateOldConfig writes.
#pragma once

#include <string>
#include <vector>

#include "app/config/load.h"
#include "app/config/release_version.h"
#include "app/util/machine.h"
#include "app/util/status.h"

namespace kkadm::config {

struct MigratedConfig {
  std::string text;                   // the documents, "---\n" between them
  std::vector<std::string> warnings;  // from defaulting and validation
};

// Decodes `old` strictly (an unknown field or kind is an error naming file, document and field),
// then builds what init, join and reset would read from it, as kubeadm does: v1beta3 maps of
// extraArgs become lists sorted by name, apiServer.timeoutForControlPlane and discovery.timeout
// move into `timeouts`, the defaults (dynamic ones from `machine`, the version label looked up in
// `versions`) are filled and the result validated. Component configurations are dropped.
// Output order: InitConfiguration and ClusterConfiguration, JoinConfiguration, ResetConfiguration.
// InvalidArgument when the file holds no kubeadm.k8s.io/v1beta3 document: nothing to migrate.
Result<MigratedConfig> MigrateConfig(const ConfigSource& old, const util::Machine& machine,
                                     const ReleaseVersionSource& versions);

}  // namespace kkadm::config
