// DryRunKubeClient: what --dry-run hands to the cluster-side phases. Writes are printed
// ("[dryrun] Would create ConfigMap kube-system/kubeadm-config") and answered as if they had
// succeeded; reads answer with a minimal object of the requested name, as kubeadm's dry-run client
// does, so that phases can go on. Nothing leaves the machine.
#pragma once

#include "app/util/kube_client.h"
#include "app/util/printer.h"

namespace kkadm::util {

class DryRunKubeClient final : public KubeClient {
 public:
  explicit DryRunKubeClient(Printer& printer) : printer_(printer) {}

  Result<nlohmann::json> Get(const std::string& path) override;
  Result<nlohmann::json> Create(const std::string& collection, const nlohmann::json& object) override;
  Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) override;
  Result<nlohmann::json> Patch(const std::string& path, PatchType type,
                               const nlohmann::json& patch) override;
  Status Delete(const std::string& path) override;
  Result<std::string> GetRaw(const std::string& path) override;

 private:
  Printer& printer_;
};

}  // namespace kkadm::util
