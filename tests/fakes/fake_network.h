// FakeNetwork: the Network seam for unit tests. Http() clients are answered by `http` (a
// FakeHttpServer that records every request); Kube() and Etcd() build the real clients over it
// unless a test sets `kube` or `etcd` to hand out its own. Cri() hands out `runtime` (an in-memory
// CRI runtime) and records the options it was asked for, unless a test sets `cri`.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "app/util/network.h"
#include "tests/fakes/fake_container_runtime.h"
#include "tests/fakes/fake_http_client.h"

namespace kkadm::testing {

class FakeNetwork final : public util::Network {
 public:
  FakeHttpServer http;
  std::function<std::unique_ptr<util::KubeClient>(util::KubeClientConfig)> kube;
  std::function<std::unique_ptr<util::EtcdClient>(util::EtcdClientConfig)> etcd;
  FakeContainerRuntime runtime;
  std::vector<util::CriClientOptions> cri_asked;
  std::function<Result<std::unique_ptr<util::ContainerRuntime>>(const util::CriClientOptions&)> cri;

  std::unique_ptr<util::HttpClient> Http(const util::HttpClientOptions& options) override {
    return http.Factory()(options);
  }
  std::unique_ptr<util::KubeClient> Kube(util::KubeClientConfig config) override {
    if (kube) return kube(std::move(config));
    auto transport = Http(util::HttpOptionsFor(config));
    return std::make_unique<util::RealKubeClient>(std::move(config), std::move(transport));
  }
  std::unique_ptr<util::EtcdClient> Etcd(util::EtcdClientConfig config) override {
    if (etcd) return etcd(std::move(config));
    return std::make_unique<util::EtcdClient>(std::move(config), Http({}));
  }
  Result<std::unique_ptr<util::ContainerRuntime>> Cri(
      const util::CriClientOptions& options) override {
    cri_asked.push_back(options);
    if (cri) return cri(options);
    return std::unique_ptr<util::ContainerRuntime>(
        std::make_unique<ForwardingContainerRuntime>(runtime));
  }
};

}  // namespace kkadm::testing
