// The cluster as phases change it while a command keeps a journal: API clients that tell the
// journal of each object the API server accepted a change of, and an etcd joiner that tells it of
// the member it added, so that status shows them and reset knows which member is this node's.
#pragma once

#include <memory>
#include <string>

#include "app/phases/etcd/etcd_join.h"
#include "app/phases/journal/journal.h"
#include "app/util/network.h"

namespace kkadm::phases::journal {

class JournalingKubeClient final : public util::KubeClient {
 public:
  JournalingKubeClient(std::unique_ptr<util::KubeClient> api, Journal& journal)
      : api_(std::move(api)), journal_(journal) {}

  Result<nlohmann::json> Get(const std::string& path) override { return api_->Get(path); }
  Result<nlohmann::json> Create(const std::string& collection,
                                const nlohmann::json& object) override;
  Result<nlohmann::json> Update(const std::string& path, const nlohmann::json& object) override;
  Result<nlohmann::json> Patch(const std::string& path, util::PatchType type,
                               const nlohmann::json& patch) override;
  Status Delete(const std::string& path) override;
  Result<std::string> GetRaw(const std::string& path) override { return api_->GetRaw(path); }

 private:
  std::unique_ptr<util::KubeClient> api_;
  Journal& journal_;
};

// The host's Network, whose Kubernetes API clients are JournalingKubeClients.
class JournalingNetwork final : public util::Network {
 public:
  JournalingNetwork(util::Network& net, Journal& journal) : net_(net), journal_(journal) {}

  std::unique_ptr<util::HttpClient> Http(const util::HttpClientOptions& options) override {
    return net_.Http(options);
  }
  std::unique_ptr<util::KubeClient> Kube(util::KubeClientConfig config) override {
    return std::make_unique<JournalingKubeClient>(net_.Kube(std::move(config)), journal_);
  }
  std::unique_ptr<util::EtcdClient> Etcd(util::EtcdClientConfig config) override {
    return net_.Etcd(std::move(config));
  }
  Result<std::unique_ptr<util::ContainerRuntime>> Cri(
      const util::CriClientOptions& options) override {
    return net_.Cri(options);
  }

 private:
  util::Network& net_;
  Journal& journal_;
};

class JournalingEtcdJoiner final : public EtcdJoiner {
 public:
  JournalingEtcdJoiner(EtcdJoiner& etcd, Journal& journal) : etcd_(etcd), journal_(journal) {}

  Status CheckHealth(const config::InitConfiguration& cfg) override {
    return etcd_.CheckHealth(cfg);
  }
  Result<LearnerAdded> AddMember(const config::InitConfiguration& cfg, const std::string& name,
                                 const std::string& peer_url) override;
  Status PromoteAndWait(const config::InitConfiguration& cfg, const LearnerAdded& added,
                        const std::string& peer_url) override {
    return etcd_.PromoteAndWait(cfg, added, peer_url);
  }

 private:
  EtcdJoiner& etcd_;
  Journal& journal_;
};

}  // namespace kkadm::phases::journal
