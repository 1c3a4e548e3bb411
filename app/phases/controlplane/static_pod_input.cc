// Steps every kubeadm static Pod shares (see static_pod_input.h).
#include "app/phases/controlplane/static_pod_input.h"

#include "app/util/kube_yaml.h"

namespace kkadm::phases {

using nlohmann::json;

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

Status PatchAndWritePod(const std::string& target, json pod, const ManifestPatcher& patcher,
                        util::FileSystem& fs, const std::string& manifest_dir,
                        util::Printer* dry_run_printer) {
  if (patcher) {
    auto patched = patcher(target, std::move(pod));
    if (!patched.has_value()) {
      return std::move(patched).error().Wrap("patching the \"" + target + "\" manifest");
    }
    pod = std::move(patched).value();
  }
  return util::WriteStaticPodManifest(fs, manifest_dir, target, util::ToKubernetesYaml(pod),
                                      dry_run_printer);
}

}  // namespace kkadm::phases
