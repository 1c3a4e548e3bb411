// `kkadm config images list`: the container images kkadm would use.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/config/release_version.h"
#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct CommandContext;

struct ImagesListOptions {
  std::string output = "text";  // text | json | yaml
  std::string config_path;      // --config
  std::string kubernetes_version;
  std::string image_repository;
};

// Adds `images list` under the `config` command.
void AddImagesCommand(CLI::App& config_cmd, CommandContext& context);

// The ClusterConfiguration the list is for: kkadm's defaults, then the ClusterConfiguration
// document of --config (kubernetesVersion, imageRepository, etcd, dns, proxy), then the flags.
// InvalidArgument when the file cannot be read or parsed. The one place the command decodes a
// configuration file. A version label is looked up in `versions`, as `kkadm init` looks it up.
Result<config::ClusterConfiguration> LoadImagesConfig(const ImagesListOptions& options,
                                                      const config::ReleaseVersionSource& versions);

// The text the command prints for `images` in `output` format (kubeadm's output.kubeadm.k8s.io
// v1alpha3 Images object for json and yaml).
std::string FormatImages(const std::vector<std::string>& images, const std::string& output);

}  // namespace kkadm::cmd
