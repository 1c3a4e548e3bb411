// Steps every kubeadm static Pod shares (see static_pod_input.h).
#include "app/phases/controlplane/static_pod_input.h"

#include "app/util/environment.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {

using nlohmann::json;

namespace {

Status PatchingFailed(const std::string& target, Status error) {
  return std::move(error).Wrap("patching the \"" + target + "\" manifest");
}

}  // namespace

std::string JoinPath(const std::string& dir, const std::string& name) {
  if (!dir.empty() && dir.back() == '/') return dir + name;
  return dir + "/" + name;
}

void FillContainer(json& pod, const std::string& image, const StaticPodInput& input,
                   const std::vector<std::string>& command,
                   const std::vector<config::EnvVar>& env) {
  json& container = pod["spec"]["containers"][0];
  container["image"] = image;
  container["imagePullPolicy"] = input.image_pull_policy;
  container["command"] = command;
  if (!env.empty()) {
    json list = json::array();
    for (const auto& var : env) list.push_back({{"name", var.name}, {"value", var.value}});
    container["env"] = std::move(list);
  }
}

ManifestPatcher PatcherFor(const util::patches::Patcher& patches) {
  return [&patches](const std::string& target, json pod) {
    return patches.Apply(target, std::move(pod));
  };
}

Status CheckPodPatches(const util::patches::Patcher& patches, const std::string& target,
                       const std::function<Result<json>()>& build) {
  Status applies = patches.Check(target, build);
  return applies.ok() ? applies : PatchingFailed(target, std::move(applies));
}

Status PatchAndWritePod(const std::string& target, json pod, const ManifestPatcher& patcher,
                        util::FileSystem& fs, const std::string& manifest_dir) {
  if (patcher) {
    auto patched = patcher(target, std::move(pod));
    if (!patched.has_value()) return PatchingFailed(target, std::move(patched).error());
    pod = std::move(patched).value();
  }
  return util::WriteStaticPodManifest(fs, manifest_dir, target, util::yaml::Emit(pod));
}

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

}  // namespace kkadm::phases
