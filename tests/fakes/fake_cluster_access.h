// FakeInitClusterAccess and FakeJoinClusterAccess: cluster access over objects the test keeps. A
// client or cluster left null is refused with FailedPrecondition naming it, as an unreachable
// cluster would be; join's discoveries are counted.
#pragma once

#include <memory>
#include <string>

#include "app/phases/init/init_data.h"
#include "app/phases/join/join_data.h"
#include "tests/fakes/forwarding_kube_client.h"

namespace kkadm::testing {

template <typename T>
Result<T*> GivenOrRefused(T* given, const std::string& what) {
  if (given == nullptr) return FailedPrecondition("the test gives no " + what);
  return given;
}

class FakeInitClusterAccess final : public phases::InitClusterAccess {
 public:
  util::KubeClient* admin = nullptr;
  util::KubeClient* super_admin = nullptr;

  Result<util::KubeClient*> AdminClient() override {
    return GivenOrRefused(admin, "admin.conf client");
  }
  Result<util::KubeClient*> SuperAdminClient() override {
    return GivenOrRefused(super_admin, "super-admin.conf client");
  }
};

class FakeJoinClusterAccess final : public phases::JoinClusterAccess {
 public:
  phases::JoinCluster* cluster = nullptr;
  util::KubeClient* bootstrap = nullptr;
  util::KubeClient* admin = nullptr;
  // What LocalApiClient's clients forward to.
  util::KubeClient* local_api = nullptr;
  int discoveries = 0;

  Result<phases::JoinCluster*> Discovered() override {
    ++discoveries;
    return GivenOrRefused(cluster, "discovered cluster");
  }
  Result<util::KubeClient*> BootstrapClient() override {
    return GivenOrRefused(bootstrap, "bootstrap client");
  }
  Result<util::KubeClient*> AdminClient() override {
    return GivenOrRefused(admin, "admin.conf client");
  }
  Result<std::unique_ptr<util::KubeClient>> LocalApiClient() override {
    auto target = GivenOrRefused(local_api, "local API client");
    if (!target) return target.error();
    return std::unique_ptr<util::KubeClient>(std::make_unique<ForwardingKubeClient>(**target));
  }
};

}  // namespace kkadm::testing
