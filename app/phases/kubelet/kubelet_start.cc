// kubelet-start: kubeadm-flags.env, config.yaml, the unit files, and systemd.
#include "app/phases/kubelet/kubelet_start.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "app/phases/kubelet/kubeadm_flags.h"
#include "app/phases/kubelet/kubelet_config.h"
#include "app/phases/kubelet/kubelet_drop_ins.h"
#include "app/phases/kubelet/kubelet_unit_files.h"
#include "app/util/ascii.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

constexpr const char* kPrefix = "kubelet-start";

// An unreachable systemd gets one clear message; other failures keep theirs, with context.
Status SystemdFailure(const Status& s, const std::string& doing) {
  if (s.ok()) return s;
  if (s.code() == StatusCode::kUnavailable) {
    return Unavailable(fmt::format(
        "kubelet-start: cannot reach systemd over D-Bus ({}); kkadm needs systemd to manage the "
        "kubelet",
        s.message()));
  }
  return s.Wrap(doing);
}

Status WriteFlagsEnv(util::Host& host, util::Printer& out, const KubeletStartInput& in) {
  std::string hostname = util::AsciiToLower(host.machine.Hostname());
  auto base = KubeletBaseFlags(in.node, in.cluster.image_repository, hostname, in.register_taints);
  std::string content = RenderKubeadmFlagsEnv(ArgumentsToCommand(base, in.node.kubelet_extra_args));
  out.Line(kPrefix, fmt::format("Writing kubelet environment file with flags to file \"{}/{}\"",
                                in.kubelet_dir, kKubeadmFlagsEnvName));
  return WriteKubeletDirFile(host.fs, in.kubelet_dir, kKubeadmFlagsEnvName, content);
}

Result<nlohmann::json> KubeletConfig(const util::Host& host, const KubeletStartInput& in) {
  return BuildKubeletConfiguration(
      {.cluster = in.cluster,
       .user = in.kubelet_config,
       .static_pod_path = in.manifest_dir,
       .systemd_resolv_conf = host.fs.Exists(std::string(kSystemdResolvConf))});
}

Status PatchingFailed(Status error) {
  return std::move(error).Wrap("could not apply patches to the KubeletConfiguration");
}

Status WriteConfigYaml(util::Host& host, util::Printer& out, const KubeletStartInput& in) {
  auto doc = KubeletConfig(host, in);
  if (!doc) return doc.error();
  auto patched = in.patches.Apply(kKubeletConfigurationTarget, std::move(*doc));
  if (!patched) return PatchingFailed(patched.error());
  out.Line(kPrefix, fmt::format("Writing kubelet configuration to file \"{}/{}\"", in.kubelet_dir,
                                kKubeletConfigName));
  return WriteKubeletDirFile(host.fs, in.kubelet_dir, kKubeletConfigName,
                             util::yaml::Emit(*patched));
}

}  // namespace

Status CheckKubeletConfigPatches(const util::Host& host, const KubeletStartInput& in) {
  Status applies =
      in.patches.Check(kKubeletConfigurationTarget, [&] { return KubeletConfig(host, in); });
  return applies.ok() ? applies : PatchingFailed(std::move(applies));
}

Status CheckKubeletStart(const util::Host& host, const KubeletStartInput& in) {
  KKADM_RETURN_IF_ERROR(CheckKubeletConfigPatches(host, in));
  return CheckKubeletDropIns(host.fs);
}

Result<std::vector<std::string>> WriteKubeletFiles(util::Host& host, util::Printer& out,
                                                   const KubeletStartInput& in) {
  KKADM_RETURN_IF_ERROR(CheckKubeletStart(host, in));
  KKADM_RETURN_IF_ERROR(WriteFlagsEnv(host, out, in));
  KKADM_RETURN_IF_ERROR(WriteConfigYaml(host, out, in));
  KubeletUnitPaths paths{.kubelet_binary = std::string(kDefaultKubeletBinary),
                         .kubelet_dir = in.kubelet_dir,
                         .kubeconfig_dir = in.kubeconfig_dir};
  // The unit runs the kubelet this machine has; kubeadm's packages put it in /usr/bin.
  if (auto found = host.machine.LookPath("kubelet"); found && found->rfind('/', 0) == 0) {
    paths.kubelet_binary = *found;
  }
  auto units = WriteKubeletUnitFiles(host.fs, paths);
  if (!units) return units.error();
  for (const KubeletDropInConflict& hidden : units->hidden) {
    out.Line(kPrefix,
             fmt::format("Hiding drop-in \"{}\", which sets {} after kkadm's, from systemd",
                         hidden.path, hidden.setting));
  }
  return std::move(units->managed);
}

Status StopKubelet(util::InitSystem& init) {
  Status s = init.Stop(std::string(kKubeletUnit));
  if (s.code() == StatusCode::kNotFound) return Status();
  return SystemdFailure(s, "stopping the kubelet");
}

Status StartKubelet(util::InitSystem& init, util::Printer& out,
                    const std::vector<std::string>& unit_files) {
  std::string unit(kKubeletUnit);
  KKADM_RETURN_IF_ERROR(SystemdFailure(init.Enable(unit), "enabling the kubelet"));
  KKADM_RETURN_IF_ERROR(SystemdFailure(init.ReloadIfStale(unit, unit_files), "reloading systemd"));
  out.Line(kPrefix, "Starting the kubelet");
  return SystemdFailure(init.Start(unit), "starting the kubelet");
}

Status RunKubeletStart(util::Host& host, util::Printer& out, const KubeletStartInput& in) {
  // A running kubelet is left alone when its new configuration cannot be made.
  KKADM_RETURN_IF_ERROR(CheckKubeletStart(host, in));
  KKADM_RETURN_IF_ERROR(StopKubelet(host.init));
  auto unit_files = WriteKubeletFiles(host, out, in);
  if (!unit_files) return unit_files.error();
  // systemd reads the unit files and the kubelet its configuration and kubeconfigs: they must be
  // in place (and durable) before either starts, whatever the file system defers.
  KKADM_RETURN_IF_ERROR(host.fs.Sync());
  return StartKubelet(host.init, out, *unit_files);
}

}  // namespace kkadm::phases
