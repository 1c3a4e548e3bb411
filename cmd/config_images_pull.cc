// `kkadm config images pull` (config_images_pull.h): a thin adapter over phases::images.
#include "cmd/config_images_pull.h"

#include <memory>
#include <sstream>

#include "app/config/images.h"
#include "app/config/make_config.h"
#include "app/config/print_defaults.h"
#include "app/phases/cri/cri_socket.h"
#include "app/phases/images/pull.h"
#include "app/util/machine_real.h"
#include "cmd/config_file.h"
#include "cmd/context.h"
#include "cmd/event_output.h"
#include "cmd/flag_fields.h"
#include "cmd/host_factory.h"

namespace kkadm::cmd {
namespace {

std::optional<std::string> SetOrNone(const std::string& value) {
  if (value.empty()) return std::nullopt;
  return value;
}

Status RunImagesPull(const ImagesPullOptions& options, CommandContext& context,
                     EventOutput& output) {
  Result<config::InitConfiguration> cfg = LoadImagesPullConfig(options, context);
  if (!cfg) return cfg.error();
  util::RealMachine machine;
  std::ostringstream unused;  // MakeHost's printer: pulling makes no mount or service change
  util::Printer host_printer(unused);
  HostOptions host_options;
  host_options.rootfs = context.global.rootfs;
  Result<std::unique_ptr<OwnedHost>> host = MakeHost(host_options, machine, host_printer);
  if (!host) return host.error();
  util::Host& seams = (*host)->host();
  Result<std::unique_ptr<util::ContainerRuntime>> runtime =
      phases::cri::ConnectCri(seams, cfg->node_registration.cri_socket);
  if (!runtime) return runtime.error();
  util::Printer out(output.human());
  const phases::images::PullContext pull{**runtime, seams.clock, {}, output.events()};
  return phases::images::PullImages(pull, config::ControlPlaneImages(cfg->cluster), out);
}

}  // namespace

Result<config::InitConfiguration> LoadImagesPullConfig(const ImagesPullOptions& options,
                                                       CommandContext& context) {
  Result<std::optional<config::ConfigSource>> file = ReadConfigFile(options.config_path);
  if (!file) return file.error();
  config::InitFlags flags;
  flags.kubernetes_version = SetOrNone(options.kubernetes_version);
  flags.image_repository = SetOrNone(options.image_repository);
  flags.cri_socket = SetOrNone(options.cri_socket);
  flags.feature_gates = SetOrNone(options.feature_gates);
  // Image names do not depend on this host: the example machine answers hostname and address
  // questions, as for `config images list`. The socket, unless given, is the node's (kubeadm's
  // detection, under --rootfs).
  const util::RealMachine machine;
  Result<config::LoadedInit> loaded = config::MakeInitConfiguration(
      *file, flags, config::ExampleMachine(), context.release_versions,
      phases::cri::NodeCriSocketDetector(machine, context.global.rootfs));
  if (!loaded) return NameFlagInError(loaded.error(), InitFlagFields(), flags.SetNames());
  for (const std::string& w : loaded->warnings) context.err << "[config] WARNING: " << w << '\n';
  return std::move(loaded->cfg);
}

void AddImagesPullCommand(CLI::App& images_cmd, CommandContext& context) {
  auto* pull = images_cmd.add_subcommand("pull", "Pull images used by kkadm");
  auto options = std::make_shared<ImagesPullOptions>();
  pull->add_option("--config", options->config_path, "Path to a kkadm configuration file");
  pull->add_option("--kubernetes-version", options->kubernetes_version,
                   "Choose a specific Kubernetes version for the control plane")
      ->default_str("stable-1");
  pull->add_option("--image-repository", options->image_repository,
                   "Choose a container registry to pull control plane images from")
      ->default_str("registry.k8s.io");
  pull->add_option("--cri-socket", options->cri_socket,
                   "Path to the CRI socket to connect. If empty kkadm will try to auto-detect "
                   "this value; use this option only if you have more than one CRI installed or "
                   "if you have non-standard CRI socket.");
  pull->add_option("--feature-gates", options->feature_gates,
                   "A set of key=value pairs that describe feature gates for various features.");
  auto output = std::make_shared<EventOutput>(context, "config images pull");
  output->AddFlags(*pull);
  pull->callback([&context, options, output] {
    context.status = output->Run([&] { return RunImagesPull(*options, context, *output); });
  });
}

}  // namespace kkadm::cmd
