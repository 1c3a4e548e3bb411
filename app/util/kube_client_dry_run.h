// DryRunKubeClient: what --dry-run hands to the cluster-side phases. Nothing leaves the machine.
// Every call is printed ("[dryrun] Would perform action CREATE on ConfigMap kube-system/x") and
// answered as kubeadm's dry-run client (a fake clientset with a few reactors) answers it:
//   - writes succeed and are kept, so that later reads of this run see them (a second create of
//     the same object is AlreadyExists, as on a real API server);
//   - a read of an object this run has not written is NotFound ("secrets \"x\" not found"), except
//     a Node, which is served as a minimal object of that name (kubeadm's GetNodeReactor) so that
//     mark-control-plane and the node patches can go on;
//   - a list holds the objects this run wrote to that collection (selectors are not applied);
//   - non-resource reads ("/livez") answer "ok".
#pragma once

#include <map>
#include <string>

#include "app/util/kube_client.h"
#include "app/util/printer.h"

namespace kkadm::util {

class DryRunKubeClient final : public KubeClient {
 public:
  explicit DryRunKubeClient(Printer& printer) : printer_(printer) {}

  Result<nlohmann::json> Get(const std::string& path) override;
  Result<nlohmann::json> Create(const std::string& collection,
                                const nlohmann::json& object) override;
  Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) override;
  Result<nlohmann::json> Patch(const std::string& path, PatchType type,
                               const nlohmann::json& patch) override;
  Status Delete(const std::string& path) override;
  Result<std::string> GetRaw(const std::string& path) override;

 private:
  nlohmann::json List(const std::string& collection) const;

  Printer& printer_;
  std::map<std::string, nlohmann::json> objects_;  // by resource path, without query
};

}  // namespace kkadm::util
