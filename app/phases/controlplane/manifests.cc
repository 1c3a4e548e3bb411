// Control-plane static Pods (see manifests.h).
#include "app/phases/controlplane/manifests.h"

#include "app/config/images.h"
#include "app/phases/controlplane/args.h"
#include "app/phases/controlplane/volumes.h"
#include "app/util/net_rules.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

constexpr int kControllerManagerPort = 10257;
constexpr int kSchedulerPort = 10259;

// A probe host for a bind or advertise address: empty (the Pod IP) for the unspecified address.
std::string ProbeAddress(const std::string& address) {
  return (address == "0.0.0.0" || address == "::") ? "" : address;
}

struct ProbeTarget {
  std::string host;
  int port = 0;
};

ProbeTarget ProbeTargetFor(const std::string& component, const StaticPodInput& in) {
  const config::ClusterConfiguration& c = *in.cluster;
  if (component == kKubeAPIServer) {
    const std::string& address = in.endpoint.advertise_address;
    return {address.empty() ? "127.0.0.1" : ProbeAddress(address), in.endpoint.bind_port};
  }
  const bool kcm = component == kKubeControllerManager;
  const auto& extra = kcm ? c.controller_manager.extra_args : c.scheduler.extra_args;
  auto bind = util::GetArgValue(extra, "bind-address");
  return {bind ? ProbeAddress(*bind) : "127.0.0.1", kcm ? kControllerManagerPort : kSchedulerPort};
}

std::vector<std::string> CommandFor(const std::string& component, const StaticPodInput& in) {
  if (component == kKubeAPIServer) return APIServerCommand(in);
  if (component == kKubeControllerManager) return ControllerManagerCommand(in);
  return SchedulerCommand(in);
}

const config::ControlPlaneComponent& ComponentConfig(const std::string& component,
                                                     const config::ClusterConfiguration& c) {
  if (component == kKubeAPIServer) return c.api_server.component;
  if (component == kKubeControllerManager) return c.controller_manager;
  return c.scheduler;
}

void FillProbes(json& container, const ProbeTarget& target, const StaticPodInput& in) {
  for (const char* probe : {"livenessProbe", "readinessProbe", "startupProbe"}) {
    if (container.contains(probe)) util::SetProbeTarget(container[probe], target.host, target.port);
  }
  container["startupProbe"]["failureThreshold"] =
      util::StartupFailureThreshold(in.health_check_timeout);
}

}  // namespace

Result<json> BuildControlPlanePod(const std::string& component, const StaticPodInput& in) {
  auto volumes = ControlPlaneVolumes(component, in);
  if (!volumes.has_value()) return volumes.error();
  auto pod = util::LoadPodBase(component);
  if (!pod.has_value()) return pod.error();
  const config::ClusterConfiguration& c = *in.cluster;
  const auto env = util::MergeEnvVars(util::ProxyEnvVars(in.environment),
                                      ComponentConfig(component, c).extra_envs);
  FillContainer(*pod, config::KubernetesImage(component, c), in, CommandFor(component, in), env);
  json& container = (*pod)["spec"]["containers"][0];
  FillProbes(container, ProbeTargetFor(component, in), in);
  container["volumeMounts"] = util::VolumeMountsJson(*volumes);
  (*pod)["spec"]["volumes"] = util::VolumesJson(*volumes);
  if (component == kKubeAPIServer) {
    (*pod)["metadata"]["annotations"] = {
        {"kubeadm.kubernetes.io/kube-apiserver.advertise-address.endpoint",
         util::JoinHostPort(in.endpoint.advertise_address, in.endpoint.bind_port)}};
  }
  return pod;
}

Status CreateControlPlaneManifest(const std::string& component, const StaticPodInput& input,
                                  util::FileSystem& fs, const std::string& manifest_dir,
                                  const ManifestPatcher& patcher) {
  auto pod = BuildControlPlanePod(component, input);
  if (!pod.has_value()) {
    return pod.error().Wrap("failed to create static pod manifest file for \"" + component + "\"");
  }
  return PatchAndWritePod(component, std::move(*pod), patcher, fs, manifest_dir);
}

}  // namespace kkadm::phases
