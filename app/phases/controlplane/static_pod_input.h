// What building a kubeadm static Pod reads, and the last steps every such Pod shares: patching,
// serialising, writing. Used by the control-plane and etcd manifests (init and join).
#pragma once

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/file_system.h"
#include "app/util/patches/patcher.h"
#include "app/util/static_pod.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kKubeAPIServer = "kube-apiserver";
inline constexpr const char* kKubeControllerManager = "kube-controller-manager";
inline constexpr const char* kKubeScheduler = "kube-scheduler";
inline constexpr const char* kEtcd = "etcd";
inline constexpr const char* kKubernetesDir = "/etc/kubernetes";

struct StaticPodInput {
  const config::ClusterConfiguration* cluster = nullptr;  // never null
  config::APIEndpoint endpoint;                           // advertise address is set
  std::string node_name;
  std::string image_pull_policy = "IfNotPresent";
  config::Duration health_check_timeout = std::chrono::minutes(4);
  bool external_ca = false;  // ca.crt without ca.key
  // The kkadm process environment; its *_proxy variables go into the control-plane Pods.
  std::vector<config::EnvVar> environment;
  // The node's files, to see which CA-certificate directories exist. Never null.
  const util::FileSystem* fs = nullptr;
};

// Applied to each Pod (as JSON) before it is serialised, e.g. the --patches directory. The target
// is "etcd", "kube-apiserver", "kube-controller-manager" or "kube-scheduler". An empty function
// leaves the Pod as built; an error aborts the write.
using ManifestPatcher =
    std::function<Result<nlohmann::json>(const std::string& target, nlohmann::json pod)>;

// The ManifestPatcher that applies a command's patches (`patches` must outlive it).
ManifestPatcher PatcherFor(const util::patches::Patcher& patches);

// Checks, writing and printing nothing, that the patches of `target` apply to the Pod `build`
// makes (util::patches::Patcher::Check); builds nothing when `target` has no patch. Run before the
// first file of a command is written, so that a patch that does not apply leaves the node
// untouched. Errors are wrapped as PatchAndWritePod wraps them.
Status CheckPodPatches(const util::patches::Patcher& patches, const std::string& target,
                       const std::function<Result<nlohmann::json>()>& build);

// <dir>/<name> without a doubled slash (Go's filepath.Join for these clean inputs).
std::string JoinPath(const std::string& dir, const std::string& name);

// Fills the one container of a Pod base: image, pull policy, command and env (left out when
// empty, as Kubernetes omits it).
void FillContainer(nlohmann::json& pod, const std::string& image, const StaticPodInput& input,
                   const std::vector<std::string>& command, const std::vector<config::EnvVar>& env);

// The node's advertise endpoint, node name, pull policy and health-check timeout from `cfg`, the
// external-CA mode, and the process environment (for *_proxy variables). `cfg` and `fs` must
// outlive the result. Used by init and by a joining control-plane node (its InitConfiguration).
StaticPodInput StaticPodInputFromConfig(const config::InitConfiguration& cfg,
                                        const util::FileSystem& fs, bool external_ca);

// Runs `patcher` (if any) on the Pod, serialises it and writes <manifest_dir>/<target>.yaml
// (see util::WriteStaticPodManifest).
Status PatchAndWritePod(const std::string& target, nlohmann::json pod,
                        const ManifestPatcher& patcher, util::FileSystem& fs,
                        const std::string& manifest_dir);

}  // namespace kkadm::phases
