// `kkadm config images pull`: pulls the images `config images list` prints through the node's
// container runtime (kubeadm's cmd/config.go newCmdConfigImagesPull).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/config/types.h"
#include "app/util/status.h"

namespace kkadm::cmd {

struct CommandContext;

// kubeadm's flags of `config images pull`.
struct ImagesPullOptions {
  std::string config_path;  // --config
  std::string kubernetes_version;
  std::string image_repository;
  std::string cri_socket;
  std::string feature_gates;
};

// The InitConfiguration the pull is for: kkadm's defaults, then --config, then the flags, loaded
// and validated as `kkadm init` loads its configuration.
Result<config::InitConfiguration> LoadImagesPullConfig(const ImagesPullOptions& options,
                                                       CommandContext& context);

// Adds `pull` under `images`.
void AddImagesPullCommand(CLI::App& images_cmd, CommandContext& context);

}  // namespace kkadm::cmd
