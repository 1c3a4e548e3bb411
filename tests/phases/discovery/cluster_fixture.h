// ClusterFixture: what a cluster's anonymous cluster-info endpoint serves, built from a real CA
// (ECDSA P-256 made with util::pki), for discovery tests over a FakeHttpServer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/discovery/cluster_info.h"
#include "app/util/jws.h"
#include "app/util/kubeconfig.h"
#include "app/util/pki/sign.h"
#include "tests/fakes/fake_http_client.h"

namespace kkadm::testing {

inline std::string MakeCaPem(const std::string& cn) {
  auto key = util::pki::PrivateKey::Generate(util::pki::KeyType::kEcdsaP256);
  util::pki::CertConfig config;
  config.common_name = cn;
  config.is_ca = true;
  config.not_before = std::chrono::system_clock::now() - std::chrono::hours(1);
  config.not_after = std::chrono::system_clock::now() + std::chrono::hours(24);
  return util::pki::SelfSignCA(config, *key)->ToPem();
}

struct ClusterFixture {
  std::string ca_pem = MakeCaPem("kubernetes");
  std::string server = "https://10.0.0.1:6443";
  std::string token_id = "abcdef";
  std::string token_secret = "0123456789abcdef";
  std::string Token() const { return token_id + "." + token_secret; }

  std::string Kubeconfig() const {
    util::KubeconfigCluster cluster;
    cluster.server = server;
    cluster.certificate_authority_data = ca_pem;
    return phases::ClusterInfoKubeconfig(cluster);
  }
  std::string Signature(const std::string& kubeconfig, const std::string& secret) const {
    return *util::ComputeDetachedSignature(kubeconfig, token_id, secret);
  }
  // The ConfigMap as the API server answers it: the kubeconfig and, unless `signed_` is false,
  // the token's signature over it.
  std::string ConfigMap(bool signed_ = true) const {
    nlohmann::json data = {{"kubeconfig", Kubeconfig()}};
    if (signed_) data["jws-kubeconfig-" + token_id] = Signature(Kubeconfig(), token_secret);
    return nlohmann::json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"data", data}}.dump();
  }
  static std::string Url(const std::string& endpoint) {
    return "https://" + endpoint + phases::discovery::kClusterInfoPath;
  }
};

inline Result<util::HttpResponse> Answer(long status, std::string body) {
  return util::HttpResponse{status, std::move(body), {}};
}

}  // namespace kkadm::testing
