// Static Pod building blocks (see static_pod.h).
#include "app/util/static_pod.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "app/util/embedded_manifests.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::util {

using nlohmann::json;

std::optional<std::string> GetArgValue(const std::vector<Arg>& args, std::string_view name) {
  for (auto it = args.rbegin(); it != args.rend(); ++it) {
    if (it->name == name) return it->value;
  }
  return std::nullopt;
}

void SetArgValue(std::vector<Arg>& args, const std::string& name, const std::string& value) {
  for (auto it = args.rbegin(); it != args.rend(); ++it) {
    if (it->name == name) {
      it->value = value;
      return;
    }
  }
  args.push_back({name, value});
}

std::vector<std::string> ArgumentsToCommand(const std::vector<Arg>& base,
                                            const std::vector<Arg>& overrides) {
  std::vector<Arg> args = overrides;
  std::set<std::string> overridden;
  for (const auto& arg : overrides) overridden.insert(arg.name);
  for (const auto& arg : base) {
    if (!overridden.contains(arg.name)) args.push_back(arg);
  }
  std::stable_sort(args.begin(), args.end(), [](const Arg& a, const Arg& b) {
    return a.name != b.name ? a.name < b.name : a.value < b.value;
  });
  std::vector<std::string> command;
  command.reserve(args.size());
  for (const auto& arg : args) command.push_back("--" + arg.name + "=" + arg.value);
  return command;
}

void AddVolume(VolumeMap& volumes, std::string name, std::string path, bool read_only,
               std::string path_type) {
  HostPathMount mount{.name = name,
                      .host_path = path,
                      .mount_path = path,
                      .read_only = read_only,
                      .path_type = std::move(path_type)};
  volumes[std::move(name)] = std::move(mount);
}

Status AddExtraVolumes(VolumeMap& volumes, const std::vector<HostPathMount>& extra) {
  for (const auto& volume : extra) {
    if (volume.host_path.empty() || volume.host_path.front() != '/' || volume.mount_path.empty() ||
        volume.mount_path.front() != '/') {
      return InvalidArgument("extraVolumes \"" + volume.name +
                             "\": hostPath and mountPath must be absolute paths, got \"" +
                             volume.host_path + "\" and \"" + volume.mount_path + "\"");
    }
    volumes[volume.name] = volume;
  }
  return Status::Ok();
}

json VolumesJson(const VolumeMap& volumes) {
  json list = json::array();
  for (const auto& [name, volume] : volumes) {
    // kubeadm always sets the hostPath type pointer, so an empty pathType shows as type: "".
    list.push_back(
        {{"name", name}, {"hostPath", {{"path", volume.host_path}, {"type", volume.path_type}}}});
  }
  return list;
}

json VolumeMountsJson(const VolumeMap& volumes) {
  json list = json::array();
  for (const auto& [name, volume] : volumes) {
    json mount = {{"name", name}, {"mountPath", volume.mount_path}};
    if (volume.read_only) mount["readOnly"] = true;
    list.push_back(std::move(mount));
  }
  return list;
}

std::vector<EnvVar> ProxyEnvVars(const std::vector<EnvVar>& environment) {
  std::vector<EnvVar> proxies;
  for (const auto& var : environment) {
    std::string lower = var.name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower.size() >= 6 && lower.ends_with("_proxy") && !var.value.empty()) {
      proxies.push_back(var);
    }
  }
  return proxies;
}

std::vector<EnvVar> MergeEnvVars(const std::vector<EnvVar>& first,
                                 const std::vector<EnvVar>& second) {
  std::map<std::string, std::string> merged;
  for (const auto& var : first) merged[var.name] = var.value;
  for (const auto& var : second) merged[var.name] = var.value;
  std::vector<EnvVar> out;
  for (const auto& [name, value] : merged) out.push_back({name, value});
  return out;
}

int StartupFailureThreshold(std::chrono::milliseconds health_check_timeout) {
  const auto period_ms = static_cast<long long>(kProbePeriodSeconds) * 1000;
  const long long timeout_ms = health_check_timeout.count();
  return static_cast<int>((timeout_ms + period_ms - 1) / period_ms);
}

void SetProbeTarget(json& probe, const std::string& host, int port) {
  json& get = probe["httpGet"];
  if (host.empty()) {
    get.erase("host");
  } else {
    get["host"] = host;
  }
  get["port"] = port;
}

Result<json> LoadPodBase(const std::string& component) {
  const std::string name = "static-pods/" + component + ".yaml";
  auto text = EmbeddedManifest(name);
  if (!text) return Internal("embedded manifest " + name + " is missing");
  auto pod = yaml::Read(*text);
  if (!pod.has_value()) return Internal("embedded manifest " + name + ": " + pod.error().message());
  if (!pod->is_object() || !(*pod)["spec"]["containers"].is_array() ||
      (*pod)["spec"]["containers"].size() != 1) {
    return Internal("embedded manifest " + name + " is not a Pod with one container");
  }
  return pod;
}

Status WriteStaticPodManifest(FileSystem& fs, const std::string& manifest_dir,
                              const std::string& component, const std::string& yaml) {
  KKADM_RETURN_IF_ERROR(fs.MakeDirs(manifest_dir, 0700).Wrap("creating " + manifest_dir));
  const std::string path = manifest_dir + "/" + component + ".yaml";
  return fs.WriteFile(path, yaml, 0600)
      .Wrap("failed to create static pod manifest file for \"" + component + "\"");
}

}  // namespace kkadm::util
