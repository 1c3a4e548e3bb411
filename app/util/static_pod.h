// Static Pod building blocks shared by the etcd and control-plane manifests (kubeadm's
// util/staticpod, util/arguments.go, util/env.go): argument merging, volumes, probes, env, the
// Pod's YAML form and writing it to the manifest directory.
#pragma once

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/util/file_system.h"
#include "app/util/pod_spec.h"
#include "app/util/status.h"

namespace kkadm::util {

// Startup probes run every 10 s (kubeadm's StartupProbe).
inline constexpr int kProbePeriodSeconds = 10;

// ---- arguments --------------------------------------------------------------------------------

// The value of the last `name` entry in `args`, or nullopt (kubeadm's GetArgValue(args, name, -1)).
std::optional<std::string> GetArgValue(const std::vector<Arg>& args, std::string_view name);

// Sets the last `name` entry to `value`, or appends one when there is none.
void SetArgValue(std::vector<Arg>& args, const std::string& name, const std::string& value);

// The command-line flags of a component: every override is kept (v1beta4 duplicates too), a base
// entry is kept only when no override has its name; then sorted by name, then value, and rendered
// "--name=value".
std::vector<std::string> ArgumentsToCommand(const std::vector<Arg>& base,
                                            const std::vector<Arg>& overrides);

// ---- volumes ----------------------------------------------------------------------------------

// hostPath volumes of one Pod keyed by name; a later entry with the same name replaces an earlier.
using VolumeMap = std::map<std::string, HostPathMount>;

void AddVolume(VolumeMap& volumes, std::string name, std::string path, bool read_only,
               std::string path_type);

// Adds the user's extraVolumes over the defaults. InvalidArgument (naming the volume) when a host
// or mount path is not absolute; config validation rejects those earlier, this is the last guard.
Status AddExtraVolumes(VolumeMap& volumes, const std::vector<HostPathMount>& extra);

// `spec.volumes` and `volumeMounts` JSON, sorted by name.
nlohmann::json VolumesJson(const VolumeMap& volumes);
nlohmann::json VolumeMountsJson(const VolumeMap& volumes);

// ---- environment ------------------------------------------------------------------------------

// The *_proxy variables (name matched case-insensitively, empty values dropped) of `environment`.
std::vector<EnvVar> ProxyEnvVars(const std::vector<EnvVar>& environment);

// Later lists override earlier ones by name; the result is sorted by name (MergeKubeadmEnvVars).
std::vector<EnvVar> MergeEnvVars(const std::vector<EnvVar>& first,
                                 const std::vector<EnvVar>& second);

// ---- probes -----------------------------------------------------------------------------------

// ceil(timeout / 10 s): enough startup-probe failures to cover controlPlaneComponentHealthCheck.
int StartupFailureThreshold(std::chrono::milliseconds health_check_timeout);

// Fills the httpGet target of a probe skeleton; an empty host is left out (the Pod's IP).
void SetProbeTarget(nlohmann::json& probe, const std::string& host, int port);

// ---- the Pod document -------------------------------------------------------------------------

// The embedded manifests/static-pods/<component>.yaml as JSON. Internal when missing or invalid.
Result<nlohmann::json> LoadPodBase(const std::string& component);

// Writes <manifest_dir>/<component>.yaml (0600, directory 0700). Overwrites an existing file as
// kubeadm does; repeating it with the same input gives the same file. (A dry run's FileSystem
// shows the manifest it would write.)
Status WriteStaticPodManifest(FileSystem& fs, const std::string& manifest_dir,
                              const std::string& component, const std::string& yaml);

}  // namespace kkadm::util
