// DryRunKubeClient: prints API writes, fakes answers.
#include "app/util/kube_client_dry_run.h"

#include <fmt/format.h>

namespace kkadm::util {
namespace {

// "Secret kube-system/bootstrap-token-abcdef" for messages; objects' secrets are never printed.
std::string Describe(const nlohmann::json& object) {
  const nlohmann::json& meta = object.value("metadata", nlohmann::json::object());
  std::string ns = meta.value("namespace", "");
  return fmt::format("{} {}{}", object.value("kind", "object"), ns.empty() ? "" : ns + "/",
                     meta.value("name", ""));
}

}  // namespace

Result<nlohmann::json> DryRunKubeClient::Get(const std::string& path) {
  printer_.Line("dryrun", fmt::format("Would perform action GET on resource {}", path));
  std::string name = path.substr(path.find_last_of('/') + 1);
  return nlohmann::json{{"metadata", {{"name", name}, {"resourceVersion", "1"}}}};
}

Result<nlohmann::json> DryRunKubeClient::Create(const std::string&, const nlohmann::json& object) {
  printer_.Line("dryrun", fmt::format("Would perform action CREATE on {}", Describe(object)));
  return object;
}

Result<nlohmann::json> DryRunKubeClient::Update(const std::string&, const nlohmann::json& object) {
  printer_.Line("dryrun", fmt::format("Would perform action UPDATE on {}", Describe(object)));
  return object;
}

Result<nlohmann::json> DryRunKubeClient::Patch(const std::string& path, PatchType,
                                               const nlohmann::json& patch) {
  printer_.Line("dryrun", fmt::format("Would perform action PATCH on resource {}", path));
  return patch.is_object() ? patch : nlohmann::json::object();
}

Status DryRunKubeClient::Delete(const std::string& path) {
  printer_.Line("dryrun", fmt::format("Would perform action DELETE on resource {}", path));
  return Status();
}

Result<std::string> DryRunKubeClient::GetRaw(const std::string&) { return std::string("ok"); }

}  // namespace kkadm::util
