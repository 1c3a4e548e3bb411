// `kkadm version [-o short|json|yaml]`.
#include "cmd/version.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "build_info.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

std::string VersionText(const std::string& output) {
  nlohmann::ordered_json info = {
      {"clientVersion",
       {{"gitVersion", build_info::kVersion},
        {"kubernetesVersion", build_info::kKubernetesVersion},
        {"compiler", build_info::kCompiler},
        {"platform", "linux/amd64"}}}};
  if (output == "short") return std::string(build_info::kVersion) + "\n";
  if (output == "json") return info.dump(2) + "\n";
  if (output == "yaml") {
    YAML::Emitter e;
    e << YAML::BeginMap << YAML::Key << "clientVersion" << YAML::Value << YAML::BeginMap;
    for (auto& [key, value] : info["clientVersion"].items()) {
      e << YAML::Key << key << YAML::Value << value.get<std::string>();
    }
    e << YAML::EndMap << YAML::EndMap;
    return std::string(e.c_str()) + "\n";
  }
  return "kkadm version: " + info["clientVersion"].dump() + "\n";
}

}  // namespace

void AddVersionCommand(CLI::App& parent, CommandContext& context) {
  auto* cmd = parent.add_subcommand("version", "Print the version of kkadm");
  auto output = std::make_shared<std::string>();
  cmd->add_option("-o,--output", *output, "Output format; available options are 'yaml', 'json' and 'short'")
      ->check(CLI::IsMember({"", "short", "json", "yaml"}));
  cmd->callback([&context, output] { context.out << VersionText(*output); });
}

}  // namespace kkadm::cmd
