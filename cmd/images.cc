// `kkadm config images list [-o text|json|yaml]` (kubeadm's cmd/config.go images list).
#include "cmd/images.h"

#include <memory>
#include <nlohmann/json.hpp>

#include "app/config/images.h"
#include "app/config/make_config.h"
#include "app/config/print_defaults.h"
#include "app/util/yaml/yaml.h"
#include "cmd/config_file.h"
#include "cmd/config_images_pull.h"
#include "cmd/context.h"
#include "cmd/flag_fields.h"

namespace kkadm::cmd {

Result<config::ClusterConfiguration> LoadImagesConfig(
    const ImagesListOptions& options, const config::ReleaseVersionSource& versions) {
  // The same loading, defaulting and validation as `kkadm init`; image names do not depend on
  // this host, so the example machine answers hostname and address questions.
  Result<std::optional<config::ConfigSource>> file = ReadConfigFile(options.config_path);
  if (!file) return file.error();
  config::InitFlags flags;
  if (!options.kubernetes_version.empty()) flags.kubernetes_version = options.kubernetes_version;
  if (!options.image_repository.empty()) flags.image_repository = options.image_repository;
  Result<config::LoadedInit> loaded =
      config::MakeInitConfiguration(*file, flags, config::ExampleMachine(), versions);
  if (!loaded) return NameFlagInError(loaded.error(), InitFlagFields(), flags.SetNames());
  return std::move(loaded->cfg.cluster);
}

std::string FormatImages(const std::vector<std::string>& images, const std::string& output) {
  if (output == "json" || output == "yaml") {
    nlohmann::ordered_json object = {
        {"kind", "Images"}, {"apiVersion", "output.kubeadm.k8s.io/v1alpha3"}, {"images", images}};
    if (output == "json") return object.dump(4) + "\n";
    return util::yaml::Emit(nlohmann::json(object));
  }
  std::string text;
  for (const auto& image : images) text += image + "\n";
  return text;
}

void AddImagesCommand(CLI::App& config_cmd, CommandContext& context) {
  auto* images =
      config_cmd.add_subcommand("images", "Interact with container images used by kkadm");
  images->require_subcommand(1);
  auto* list = images->add_subcommand("list", "Print a list of images kkadm will use");
  auto options = std::make_shared<ImagesListOptions>();
  list->add_option("-o,--output", options->output, "Output format. One of: text|json|yaml")
      ->check(CLI::IsMember({"text", "json", "yaml"}));
  list->add_option("--config", options->config_path, "Path to a kkadm configuration file");
  list->add_option("--kubernetes-version", options->kubernetes_version,
                   "Choose a specific Kubernetes version for the control plane");
  list->add_option("--image-repository", options->image_repository,
                   "Choose a container registry to pull control plane images from");
  list->callback([&context, options] {
    auto cfg = LoadImagesConfig(*options, context.release_versions);
    if (!cfg.has_value()) {
      context.status = cfg.error();
      return;
    }
    context.out << FormatImages(config::ControlPlaneImages(*cfg), options->output);
  });
  AddImagesPullCommand(*images, context);
}

}  // namespace kkadm::cmd
