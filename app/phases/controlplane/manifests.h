// The kube-apiserver, kube-controller-manager and kube-scheduler static Pods (kubeadm's
// controlplane/manifests.go): built as JSON from the embedded YAML bases, then written.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/phases/controlplane/static_pod_input.h"

namespace kkadm::phases {

// The Pod of `component` ("kube-apiserver", "kube-controller-manager", "kube-scheduler") for the
// input, before any patch. InvalidArgument for an unknown component or a bad extraVolumes entry.
Result<nlohmann::json> BuildControlPlanePod(const std::string& component,
                                            const StaticPodInput& input);

// Builds the Pod, runs `patcher` on it and writes <manifest_dir>/<component>.yaml (0600, dir
// 0700). Rewrites an existing manifest, as kubeadm does; the same input always gives the same
// bytes.
Status CreateControlPlaneManifest(const std::string& component, const StaticPodInput& input,
                                  util::FileSystem& fs, const std::string& manifest_dir,
                                  const ManifestPatcher& patcher);

}  // namespace kkadm::phases
