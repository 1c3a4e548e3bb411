// Which static Pods use renewed files, and restarting them by moving their manifests (see
// restart.h).
#include "app/phases/certs/restart.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "app/phases/waitcontrolplane/wait.h"
#include "app/util/strings.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases::certs {
namespace {

// kubeadm upgrade's order: etcd before the API server that stores in it, the API server before
// the components that talk to it.
constexpr const char* kRestartOrder[] = {"etcd", "kube-apiserver", "kube-controller-manager",
                                         "kube-scheduler"};

// "--tls-cert-file=/x" -> "/x"; a bare argument is itself.
std::string ArgValue(const std::string& arg) {
  const std::size_t eq = arg.find('=');
  return arg.rfind("--", 0) == 0 && eq != std::string::npos ? arg.substr(eq + 1) : arg;
}

std::vector<std::string> NamedFiles(const nlohmann::json& container,
                                    const std::set<std::string>& renewed) {
  std::vector<std::string> uses;
  for (const char* field : {"command", "args"}) {
    if (!container.contains(field) || !container[field].is_array()) continue;
    for (const nlohmann::json& arg : container[field]) {
      if (!arg.is_string()) continue;
      const std::string value = ArgValue(arg.get<std::string>());
      if (renewed.count(value) != 0 && std::find(uses.begin(), uses.end(), value) == uses.end()) {
        uses.push_back(value);
      }
    }
  }
  return uses;
}

// A named probe port is the container's port of that name.
Result<int> ProbePort(const nlohmann::json& port, const nlohmann::json& container) {
  if (port.is_number_integer()) return port.get<int>();
  if (port.is_string()) {
    const std::string name = port.get<std::string>();
    for (const nlohmann::json& p : container.value("ports", nlohmann::json::array())) {
      if (p.value("name", "") == name && p.contains("containerPort")) {
        return p["containerPort"].get<int>();
      }
    }
    if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit)) return std::stoi(name);
  }
  return InvalidArgument("livenessProbe.httpGet.port: no such port " + port.dump());
}

Result<StaticPodComponent> ReadComponent(const std::string& name, const std::string& manifest,
                                         const std::set<std::string>& renewed,
                                         const util::FileSystem& fs) {
  auto data = fs.ReadFile(manifest);
  if (!data) return data.error();
  auto pod = util::yaml::Read(*data);
  if (!pod) return pod.error().Wrap("reading the static Pod manifest " + manifest);
  if (!pod->is_object())
    return InvalidArgument("the static Pod manifest " + manifest + " is no Pod");
  const nlohmann::json containers =
      pod->value("spec", nlohmann::json::object()).value("containers", nlohmann::json::array());
  if (!containers.is_array() || containers.empty() || !containers[0].is_object()) {
    return InvalidArgument("the static Pod manifest " + manifest + " has no container");
  }
  StaticPodComponent component{.name = name,
                               .manifest = manifest,
                               .health_url = "",
                               .uses = NamedFiles(containers[0], renewed)};
  if (component.uses.empty()) return component;
  auto url = LivenessUrl(*pod);
  if (!url) return url.error().Wrap(manifest + ": cannot tell when " + name + " is healthy");
  component.health_url = *url;
  return component;
}

Status MoveManifest(util::FileSystem& fs, const std::string& from, const std::string& to) {
  auto data = fs.ReadFile(from);
  if (!data) return data.error();
  auto info = fs.Stat(from);
  if (!info) return info.error();
  KKADM_RETURN_IF_ERROR(fs.MakeDirs(util::ParentDirectory(to), 0700));
  KKADM_RETURN_IF_ERROR(fs.WriteFile(to, *data, info->mode));
  // The copy is on disk before the original goes: a crash leaves one of them, never none.
  KKADM_RETURN_IF_ERROR(fs.Sync());
  KKADM_RETURN_IF_ERROR(fs.Remove(from));
  // In place before anyone waits for the kubelet to see it.
  return fs.Sync();
}

std::string HeldPath(const StaticPodComponent& component) {
  return std::string(kRestartHoldingDir) + "/" +
         component.manifest.substr(component.manifest.find_last_of('/') + 1);
}

std::string NotRestarted(const std::vector<StaticPodComponent>& components, std::size_t from) {
  std::vector<std::string> names;
  for (std::size_t i = from; i < components.size(); ++i) names.push_back(components[i].name);
  if (names.empty()) return "";
  return " (not restarted: " + util::Join(names, ", ") + ")";
}

// Stops and starts one component; its manifest is back in place on every return but a failed
// put-back, whose error says where the manifest is.
Status RestartOne(const StaticPodComponent& component, const RestartEnv& env) {
  const std::string held = HeldPath(component);
  env.out.Line(kRestartPrefix, fmt::format("Restarting {}: it uses {}", component.name,
                                           util::Join(component.uses, ", ")));
  env.out.Line(kRestartPrefix, fmt::format("Moving {} to {}", component.manifest, held));
  KKADM_RETURN_IF_ERROR(MoveManifest(env.fs, component.manifest, held));
  Status stopped = env.waiter.WaitStopped(component, env.timeout);
  env.out.Line(kRestartPrefix, fmt::format("Moving {} back to {}", held, component.manifest));
  if (Status back = MoveManifest(env.fs, held, component.manifest); !back.ok()) {
    return back.Wrap(fmt::format("putting its manifest back (it is kept at {})", held));
  }
  if (!stopped.ok()) {
    return stopped.Wrap(fmt::format("the kubelet did not stop it within {} (its manifest is back)",
                                    FormatGoDuration(env.timeout)));
  }
  Status healthy = env.waiter.WaitHealthy(component, env.timeout);
  if (!healthy.ok()) {
    return healthy.Wrap(fmt::format("not healthy {} after its manifest was put back",
                                    FormatGoDuration(env.timeout)));
  }
  return Status();
}

}  // namespace

std::vector<std::string> RenewedFiles(const RenewalItem& item, const RenewalEnv& env) {
  if (item.IsKubeconfig()) return {ItemPath(item, env)};
  const std::string base = env.cert_dir() + "/" + item.base_name;
  return {base + ".crt", base + ".key"};
}

Result<std::string> LivenessUrl(const nlohmann::json& pod) {
  if (!pod.is_object()) return InvalidArgument("not a Pod");
  const nlohmann::json containers =
      pod.value("spec", nlohmann::json::object()).value("containers", nlohmann::json::array());
  if (!containers.is_array() || containers.empty() || !containers[0].is_object() ||
      !containers[0].contains("livenessProbe") || !containers[0]["livenessProbe"].is_object() ||
      !containers[0]["livenessProbe"].contains("httpGet")) {
    return InvalidArgument("its container has no livenessProbe.httpGet");
  }
  const nlohmann::json& get = containers[0]["livenessProbe"]["httpGet"];
  if (!get.is_object()) return InvalidArgument("its livenessProbe.httpGet is not a map");
  auto port = ProbePort(get.value("port", nlohmann::json()), containers[0]);
  if (!port) return port.error();
  std::string host = get.value("host", "");
  if (host.empty()) host = "127.0.0.1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  std::string scheme = get.value("scheme", "HTTP");
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), ::tolower);
  std::string path = get.value("path", "/");
  if (path.empty() || path.front() != '/') path.insert(0, "/");
  return fmt::format("{}://{}:{}{}", scheme, host, *port, path);
}

Result<std::vector<StaticPodComponent>> ComponentsUsing(const std::vector<std::string>& renewed,
                                                        const std::string& manifest_dir,
                                                        const util::FileSystem& fs) {
  const std::set<std::string> files(renewed.begin(), renewed.end());
  std::vector<StaticPodComponent> components;
  for (const char* name : kRestartOrder) {
    const std::string manifest = manifest_dir + "/" + name + ".yaml";
    if (!fs.Exists(manifest)) continue;
    Result<StaticPodComponent> component = NotFound(manifest);
    try {
      component = ReadComponent(name, manifest, files, fs);
    } catch (const nlohmann::json::exception& e) {  // a field of an unexpected type
      return InvalidArgument("the static Pod manifest " + manifest + ": " + e.what());
    }
    if (!component) return component.error();
    if (!component->uses.empty()) components.push_back(std::move(*component));
  }
  return components;
}

Status RestartComponents(const std::vector<StaticPodComponent>& components, const RestartEnv& env) {
  // The components read the renewed files when they start: those must be on disk first.
  KKADM_RETURN_IF_ERROR(env.fs.Sync());
  for (std::size_t i = 0; i < components.size(); ++i) {
    if (Status status = RestartOne(components[i], env); !status.ok()) {
      return status.Wrap("restarting " + components[i].name + NotRestarted(components, i + 1));
    }
  }
  std::vector<std::string> names;
  for (const StaticPodComponent& c : components) names.push_back(c.name);
  env.out.Line(kRestartPrefix, names.empty()
                                   ? "No static Pod uses the renewed files: nothing to restart"
                                   : "Restarted " + util::Join(names, ", ") + ": all healthy");
  return Status();
}

Status RestoreHeldManifests(util::FileSystem& fs, const std::string& manifest_dir,
                            util::Printer& out) {
  if (!fs.Exists(kRestartHoldingDir)) return Status();
  auto names = fs.ListDir(kRestartHoldingDir);
  if (!names) return names.error();
  for (const std::string& name : *names) {
    const std::string held = std::string(kRestartHoldingDir) + "/" + name;
    const std::string manifest = manifest_dir + "/" + name;
    if (fs.Exists(manifest)) {
      KKADM_RETURN_IF_ERROR(fs.Remove(held));
      continue;
    }
    KKADM_RETURN_IF_ERROR(MoveManifest(fs, held, manifest));
    out.Line(kRestartPrefix,
             fmt::format("Put back {}, which an interrupted restart had moved out", manifest));
  }
  return Status();
}

}  // namespace kkadm::phases::certs
