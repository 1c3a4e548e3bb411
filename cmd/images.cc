// `kkadm config images list [-o text|json|yaml]` (kubeadm's cmd/config.go images list).
#include "cmd/images.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <memory>
#include <nlohmann/json.hpp>

#include "app/util/file_system_real.h"
#include "app/util/images.h"
#include "app/util/kube_yaml.h"
#include "build_info.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

std::string Scalar(const YAML::Node& node, const char* key) {
  const YAML::Node value = node[key];
  return value && value.IsScalar() ? value.Scalar() : std::string();
}

bool Flag(const YAML::Node& node, const char* key) {
  const YAML::Node value = node[key];
  return value && value.IsScalar() && value.as<bool>(false);
}

// The fields of a ClusterConfiguration document that decide image names.
void ApplyClusterDocument(const YAML::Node& doc, config::ClusterConfiguration& cfg) {
  if (auto v = Scalar(doc, "kubernetesVersion"); !v.empty()) cfg.kubernetes_version = v;
  if (auto v = Scalar(doc, "imageRepository"); !v.empty()) cfg.image_repository = v;
  const YAML::Node etcd = doc["etcd"];
  if (etcd && etcd["external"]) {
    cfg.etcd.local.reset();
    cfg.etcd.external = config::ExternalEtcd{};
  } else if (etcd && etcd["local"]) {
    cfg.etcd.local->image_repository = Scalar(etcd["local"], "imageRepository");
    cfg.etcd.local->image_tag = Scalar(etcd["local"], "imageTag");
  }
  if (const YAML::Node dns = doc["dns"]) {
    cfg.dns.image_repository = Scalar(dns, "imageRepository");
    cfg.dns.image_tag = Scalar(dns, "imageTag");
    cfg.dns.disabled = Flag(dns, "disabled");
  }
  if (const YAML::Node proxy = doc["proxy"]) cfg.proxy.disabled = Flag(proxy, "disabled");
}

Status ApplyConfigFile(const std::string& path, config::ClusterConfiguration& cfg) {
  util::RealFileSystem fs("/");
  auto text = fs.ReadFile(path);
  if (!text.has_value()) return InvalidArgument("unable to read config from \"" + path + "\"");
  try {
    for (const YAML::Node& doc : YAML::LoadAll(*text)) {
      if (doc.IsMap() && Scalar(doc, "kind") == "ClusterConfiguration") {
        ApplyClusterDocument(doc, cfg);
      }
    }
  } catch (const YAML::Exception& e) {
    return InvalidArgument("unable to decode config from \"" + path + "\": " + e.what());
  }
  return Status::Ok();
}

std::string NormalizeVersion(std::string version) {
  if (!version.empty() && std::isdigit(static_cast<unsigned char>(version.front()))) {
    version.insert(0, "v");
  }
  return version;
}

}  // namespace

Result<config::ClusterConfiguration> LoadImagesConfig(const ImagesListOptions& options) {
  config::ClusterConfiguration cfg;
  cfg.etcd.local = config::LocalEtcd{};
  cfg.kubernetes_version = build_info::kKubernetesVersion;
  if (!options.config_path.empty()) {
    KKADM_RETURN_IF_ERROR(ApplyConfigFile(options.config_path, cfg));
  }
  if (!options.kubernetes_version.empty()) cfg.kubernetes_version = options.kubernetes_version;
  if (!options.image_repository.empty()) cfg.image_repository = options.image_repository;
  cfg.kubernetes_version = NormalizeVersion(cfg.kubernetes_version);
  return cfg;
}

std::string FormatImages(const std::vector<std::string>& images, const std::string& output) {
  if (output == "json" || output == "yaml") {
    nlohmann::ordered_json object = {
        {"kind", "Images"}, {"apiVersion", "output.kubeadm.k8s.io/v1alpha3"}, {"images", images}};
    if (output == "json") return object.dump(4) + "\n";
    return util::ToKubernetesYaml(nlohmann::json(object));
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
    auto cfg = LoadImagesConfig(*options);
    if (!cfg.has_value()) {
      context.status = cfg.error();
      return;
    }
    context.out << FormatImages(util::ControlPlaneImages(*cfg), options->output);
  });
}

}  // namespace kkadm::cmd
