// kubelet.conf rewrite for client certificate rotation (see kubelet_finalize.h).
#include "app/phases/kubeletfinalize/kubelet_finalize.h"

#include <nlohmann/json.hpp>

#include "app/phases/kubelet/kubelet_unit_files.h"
#include "app/util/yaml/yaml.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

json* FindNamed(json& list, const std::string& name) {
  if (!list.is_array()) return nullptr;
  for (auto& item : list) {
    if (item.is_object() && item.value("name", "") == name) return &item;
  }
  return nullptr;
}

Status PointUserAt(json& doc, const std::string& path, const std::string& pem) {
  const std::string current = doc.value("current-context", "");
  json* context = FindNamed(doc["contexts"], current);
  if (context == nullptr || !(*context)["context"].is_object()) {
    return InvalidArgument("the file \"" + path + "\" does not have current context \"" + current +
                           "\"");
  }
  const std::string user_name = (*context)["context"].value("user", "");
  json* user = FindNamed(doc["users"], user_name);
  if (user == nullptr) {
    return InvalidArgument("the file \"" + path + "\" does not have user \"" + user_name + "\"");
  }
  json& info = (*user)["user"];
  if (!info.is_object()) info = json::object();
  info.erase("client-certificate-data");
  info.erase("client-key-data");
  info["client-certificate"] = pem;
  info["client-key"] = pem;
  return Status::Ok();
}

}  // namespace

Status EnableClientCertRotation(util::Host& host, util::Printer& out,
                                const KubeletFinalizeInput& in) {
  const std::string pem = in.kubelet_pki_dir + "/" + kKubeletClientCurrentPem;
  if (!host.fs.Exists(pem)) return Status::Ok();
  out.Line("kubelet-finalize", "Updating \"" + in.kubelet_kubeconfig +
                                   "\" to point to a rotatable kubelet client certificate and key");
  auto text = host.fs.ReadFile(in.kubelet_kubeconfig);
  if (!text) return text.error();
  auto doc = util::yaml::Read(*text);
  if (!doc) return doc.error().Wrap("failed to load kubeconfig \"" + in.kubelet_kubeconfig + "\"");
  KKADM_RETURN_IF_ERROR(PointUserAt(*doc, in.kubelet_kubeconfig, pem));
  KKADM_RETURN_IF_ERROR(host.fs.WriteFile(in.kubelet_kubeconfig, util::yaml::Emit(*doc), 0600));
  // The kubelet reads kubelet.conf only at start: it must be in place first, whatever the file
  // system defers.
  KKADM_RETURN_IF_ERROR(host.fs.Sync());
  return host.init.Restart(std::string(kKubeletUnit)).Wrap("restarting the kubelet");
}

}  // namespace kkadm::phases
