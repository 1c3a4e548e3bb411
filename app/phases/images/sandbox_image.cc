// The runtime's sandbox image against kubeadm's pause image (sandbox_image.h).
#include "app/phases/images/sandbox_image.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

namespace kkadm::phases::images {

Result<std::optional<std::string>> RuntimeSandboxImage(util::ContainerRuntime& runtime) {
  Result<std::map<std::string, std::string>> info = runtime.RuntimeInfo();
  if (!info) return info.error().Wrap("could not get runtime status");
  auto config = info->find("config");
  if (config == info->end()) return std::optional<std::string>();
  const nlohmann::json parsed = nlohmann::json::parse(config->second, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object())
    return Internal("failed to unmarshal CRI info config: not a JSON object");
  auto image = parsed.find("sandboxImage");
  if (image == parsed.end() || !image->is_string() || image->get<std::string>().empty())
    return std::optional<std::string>();
  return std::optional<std::string>(image->get<std::string>());
}

void WarnOnSandboxImageMismatch(util::ContainerRuntime& runtime, const std::string& pause_image,
                                const util::Events& events) {
  Result<std::optional<std::string>> sandbox = RuntimeSandboxImage(runtime);
  if (!sandbox) {
    spdlog::debug("failed to detect the sandbox image for local container runtime, {}",
                  sandbox.error().message());
    return;
  }
  if (!sandbox->has_value() || **sandbox == pause_image) return;
  const std::string warning = fmt::format(
      "detected that the sandbox image \"{}\" of the container runtime is inconsistent with that "
      "used by kubeadm. It is recommended to use \"{}\" as the CRI sandbox image.",
      **sandbox, pause_image);
  spdlog::warn("{}", warning);
  events.Emit("Warning", {{"message", warning}});
}

}  // namespace kkadm::phases::images
