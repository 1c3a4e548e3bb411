// `kkadm version [-o short|json|yaml]`.
#include "cmd/version.h"

#include <nlohmann/json.hpp>

#include "app/util/yaml/yaml.h"
#include "build_info.h"
#include "cmd/context.h"

namespace kkadm::cmd {
namespace {

std::string VersionText(const std::string& output) {
  nlohmann::ordered_json info = {{"clientVersion",
                                  {{"gitVersion", build_info::kVersion},
                                   {"kubernetesVersion", build_info::kKubernetesVersion},
                                   {"compiler", build_info::kCompiler},
                                   {"platform", "linux/amd64"}}}};
  if (output == "short") return std::string(build_info::kVersion) + "\n";
  if (output == "json") return info.dump(2) + "\n";
  if (output == "yaml") return util::yaml::Emit(info);
  return "kkadm version: " + info["clientVersion"].dump() + "\n";
}

}  // namespace

void AddVersionCommand(CLI::App& parent, CommandContext& context) {
  auto* cmd = parent.add_subcommand("version", "Print the version of kkadm");
  auto output = std::make_shared<std::string>();
  cmd->add_option("-o,--output", *output,
                  "Output format; available options are 'yaml', 'json' and 'short'")
      ->check(CLI::IsMember({"", "short", "json", "yaml"}));
  cmd->callback([&context, output] { context.out << VersionText(*output); });
}

}  // namespace kkadm::cmd
