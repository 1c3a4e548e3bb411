// kubeadm-config / kubelet-config ConfigMaps and the CRI socket annotation (see upload_config.h).
#include "app/phases/uploadconfig/upload_config.h"

#include <openssl/evp.h>
#include <spdlog/spdlog.h>

#include <memory>

#include "app/util/crypto.h"
#include "app/util/kube_apply.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

Status UploadWithReadRole(util::KubeClient& client, const json& config_map, const std::string& role,
                          json subjects) {
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(client, config_map));
  const std::string name = config_map["metadata"]["name"];
  KKADM_RETURN_IF_ERROR(util::CreateOrUpdate(
      client, util::Role(util::kKubeSystem, role,
                         json::array({util::PolicyRule({"get"}, {""}, {"configmaps"}, {name})}))));
  return util::CreateOrUpdate(client, util::RoleBinding(util::kKubeSystem, role, role, subjects));
}

}  // namespace

std::string ConfigMapChecksum(const json& config_map) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  // nlohmann::json objects iterate in sorted key order.
  for (const char* field : {"data", "binaryData"}) {
    const json values = config_map.value(field, json::object());
    for (auto it = values.begin(); it != values.end(); ++it) {
      const std::string value = it->is_string() ? it->get<std::string>() : it->dump();
      EVP_DigestUpdate(ctx.get(), it.key().data(), it.key().size());
      EVP_DigestUpdate(ctx.get(), value.data(), value.size());
    }
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &size);
  return "sha256:" + util::HexEncode(std::string_view(reinterpret_cast<char*>(digest), size));
}

Status UploadKubeadmConfig(util::KubeClient& client, util::Printer& out,
                           const std::string& cluster_configuration_yaml) {
  out.Line("upload-config",
           "Storing the configuration used in ConfigMap \"kubeadm-config\" in the \"kube-system\" "
           "Namespace");
  const json config_map = util::ConfigMap(util::kKubeSystem, "kubeadm-config",
                                          {{"ClusterConfiguration", cluster_configuration_yaml}});
  return UploadWithReadRole(client, config_map, "kubeadm:nodes-kubeadm-config",
                            json::array({util::RbacSubject("Group", util::kNodeBootstrapTokenGroup),
                                         util::RbacSubject("Group", util::kNodesGroup)}));
}

Status UploadKubeletConfig(util::KubeClient& client, util::Printer& out,
                           const std::string& kubelet_configuration_yaml) {
  out.Line("kubelet",
           "Creating a ConfigMap \"kubelet-config\" in namespace kube-system with the "
           "configuration for the kubelets in the cluster");
  json config_map = util::ConfigMap(util::kKubeSystem, "kubelet-config",
                                    {{"kubelet", kubelet_configuration_yaml}});
  config_map["metadata"]["annotations"][kComponentConfigHashAnnotation] =
      ConfigMapChecksum(config_map);
  return UploadWithReadRole(
      client, config_map, "kubeadm:kubelet-config",
      json::array({util::RbacSubject("Group", util::kNodesGroup),
                   util::RbacSubject("Group", util::kNodeBootstrapTokenGroup)}));
}

Status AnnotateCriSocket(util::KubeClient& client, util::Clock& clock, const std::string& node_name,
                         const std::string& cri_socket, std::chrono::milliseconds timeout) {
  spdlog::debug("[patchnode] Uploading the CRI socket \"{}\" to Node \"{}\" as an annotation",
                cri_socket, node_name);
  const json patch = {{"metadata", {{"annotations", {{kCriSocketAnnotation, cri_socket}}}}}};
  return util::RetryFor(
             clock, timeout, std::chrono::milliseconds(500),
             [&] {
               return client.Patch("/api/v1/nodes/" + node_name, util::PatchType::kStrategic, patch)
                   .status();
             })
      .Wrap("error patching Node \"" + node_name + "\"");
}

}  // namespace kkadm::phases
