// ForwardingKubeClient: forwards every call to a client the test keeps, for code that takes
// ownership of the clients it is handed (unique_ptr factories).
#pragma once

#include <string>

#include "app/util/kube_client.h"

namespace kkadm::testing {

class ForwardingKubeClient final : public util::KubeClient {
 public:
  explicit ForwardingKubeClient(util::KubeClient& target) : target_(target) {}
  Result<nlohmann::json> Get(const std::string& p) override { return target_.Get(p); }
  Result<nlohmann::json> Create(const std::string& c, const nlohmann::json& o) override {
    return target_.Create(c, o);
  }
  Result<nlohmann::json> Update(const std::string& p, const nlohmann::json& o) override {
    return target_.Update(p, o);
  }
  Result<nlohmann::json> Patch(const std::string& p, util::PatchType t,
                               const nlohmann::json& o) override {
    return target_.Patch(p, t, o);
  }
  Status Delete(const std::string& p) override { return target_.Delete(p); }
  Result<std::string> GetRaw(const std::string& p) override { return target_.GetRaw(p); }

 private:
  util::KubeClient& target_;
};

}  // namespace kkadm::testing
