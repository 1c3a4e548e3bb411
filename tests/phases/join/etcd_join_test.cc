// Joining stacked etcd against a fake etcd v3 JSON gateway: learner add with etcd 3.4's
// "unhealthy cluster" refusals, re-runs, the manifest for the existing cluster, promotion retries.
#include "app/phases/etcd/etcd_join.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/phases/join/join_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Seen = kkadm::testing::FakeHttpServer::Seen;
using Json = nlohmann::json;

// etcd's gateway for a cluster that starts with one voting member cp-1.
class FakeEtcdGateway {
 public:
  Json members = Json::array({{{"ID", "11"},
                               {"name", "cp-1"},
                               {"peerURLs", {"https://10.0.0.1:2380"}},
                               {"clientURLs", {"https://10.0.0.1:2379"}}}});
  int unhealthy_adds = 0;     // "unhealthy cluster" answers before an add goes through
  int unsynced_promotes = 0;  // "not in sync" answers before a promotion goes through
  bool applied_but_unanswered_add = false;
  std::vector<std::string> calls;

  Result<util::HttpResponse> Handle(const Seen& seen) {
    const std::string path = seen.request.url.substr(seen.request.url.find("/v3/"));
    calls.push_back(path);
    const Json body = Json::parse(seen.request.body.empty() ? "{}" : seen.request.body);
    if (path == "/v3/cluster/member/list") return Ok({{"members", members}});
    if (path == "/v3/cluster/member/add") return Add(body);
    if (path == "/v3/cluster/member/promote") return Promote(body);
    if (path == "/v3/maintenance/status")
      return Ok({{"header", {{"member_id", "22"}}}, {"version", "3.4.23"}});
    return util::HttpResponse{404, "{}", {}};
  }

 private:
  static Result<util::HttpResponse> Ok(const Json& j) {
    return util::HttpResponse{200, j.dump(), {}};
  }
  static Result<util::HttpResponse> Error(long http, const std::string& message, int code) {
    return util::HttpResponse{
        http, Json{{"error", message}, {"message", message}, {"code", code}}.dump(), {}};
  }
  Result<util::HttpResponse> Add(const Json& body) {
    if (unhealthy_adds > 0) {
      --unhealthy_adds;
      return Error(503, "etcdserver: unhealthy cluster", 14);
    }
    Json member = {{"ID", "22"},
                   {"peerURLs", body["peerURLs"]},
                   {"isLearner", body.value("isLearner", false)}};
    members.push_back(member);
    if (applied_but_unanswered_add) return Error(400, "etcdserver: Peer URLs already exists", 9);
    return Ok({{"member", member}, {"members", members}});
  }
  Result<util::HttpResponse> Promote(const Json& body) {
    for (auto& m : members) {
      if (m["ID"] != body["ID"]) continue;
      if (!m.value("isLearner", false))
        return Error(400, "etcdserver: can only promote a learner member", 9);
      if (unsynced_promotes > 0) {
        --unsynced_promotes;
        return Error(
            400, "etcdserver: can only promote a learner member which is in sync with leader", 9);
      }
      m["isLearner"] = false;
      return Ok({{"members", members}});
    }
    return Error(404, "etcdserver: member not found", 5);
  }
};

class EtcdJoinTest : public kkadm::testing::JoinPhasesTest {
 protected:
  EtcdJoinTest() {
    etcd_.handler = [this](const Seen& seen) { return gateway_.Handle(seen); };
    util::EtcdClientConfig config;
    config.endpoints = {"https://10.0.0.1:2379"};
    config.clock = &clock_;
    client_ = std::make_unique<util::EtcdClient>(config, etcd_.Factory()({}));
  }
  FakeEtcdGateway gateway_;
  std::unique_ptr<util::EtcdClient> client_;
};

TEST_F(EtcdJoinTest, AddsALearnerAndListsTheInitialCluster) {
  auto added = AddLearner(*client_, "cp-2", "https://10.0.0.2:2380");
  ASSERT_TRUE(added.has_value()) << added.error().message();
  EXPECT_EQ(added->id, 22u);
  EXPECT_TRUE(added->is_learner);
  ASSERT_EQ(added->initial_cluster.size(), 2u);
  EXPECT_EQ(added->initial_cluster[0].name, "cp-1");
  EXPECT_EQ(added->initial_cluster[1].name, "cp-2");
  EXPECT_EQ(added->initial_cluster[1].peer_url, "https://10.0.0.2:2380");
  const auto& add = etcd_.seen()[1];
  EXPECT_EQ(Json::parse(add.request.body),
            (Json{{"peerURLs", {"https://10.0.0.2:2380"}}, {"isLearner", true}}));
}

TEST_F(EtcdJoinTest, RetriesWhileEtcdAnswersUnhealthyCluster) {
  gateway_.unhealthy_adds = 10;  // etcd 3.4 refuses for ~5 s after a member joined
  auto added = AddLearner(*client_, "cp-2", "https://10.0.0.2:2380");
  ASSERT_TRUE(added.has_value()) << added.error().message();
  EXPECT_EQ(clock_.slept(), std::chrono::milliseconds(5000));
}

TEST_F(EtcdJoinTest, ARerunFindsTheMemberInsteadOfAddingItAgain) {
  ASSERT_TRUE(AddLearner(*client_, "cp-2", "https://10.0.0.2:2380").has_value());
  gateway_.calls.clear();
  auto again = AddLearner(*client_, "cp-2", "https://10.0.0.2:2380");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->id, 22u);
  EXPECT_THAT(gateway_.calls, ElementsAre("/v3/cluster/member/list"));
}

TEST_F(EtcdJoinTest, PeerUrlsAlreadyExistsCountsAsAdded) {
  gateway_.applied_but_unanswered_add = true;
  auto added = AddLearner(*client_, "cp-2", "https://10.0.0.2:2380");
  ASSERT_TRUE(added.has_value()) << added.error().message();
  EXPECT_EQ(added->id, 22u);
  EXPECT_EQ(added->initial_cluster.back().name, "cp-2");
}

TEST_F(EtcdJoinTest, UnstartedMembersAreNamedByTheirHexId) {
  gateway_.members.push_back(
      {{"ID", "255"}, {"peerURLs", {"https://10.0.0.3:2380"}}, {"isLearner", true}});
  auto added = AddLearner(*client_, "cp-2", "https://10.0.0.2:2380");
  ASSERT_TRUE(added.has_value());
  EXPECT_EQ(added->initial_cluster[1].name, "ff");
}

TEST_F(EtcdJoinTest, PromotionRetriesUntilTheLearnerCaughtUpAndToleratesARerun) {
  ASSERT_TRUE(AddLearner(*client_, "cp-2", "https://10.0.0.2:2380").has_value());
  gateway_.unsynced_promotes = 4;
  ASSERT_TRUE(PromoteLearner(*client_, 22).ok());
  EXPECT_EQ(clock_.slept(), std::chrono::milliseconds(2000));
  EXPECT_TRUE(PromoteLearner(*client_, 22).ok());  // already a voting member
  EXPECT_EQ(PromoteLearner(*client_, 99).code(), StatusCode::kNotFound);
}

TEST_F(EtcdJoinTest, EndpointsFromEtcdPodsElseFromControlPlaneNodes) {
  kkadm::testing::FakeKubeClient api;
  EXPECT_EQ(EtcdEndpointsFromCluster(api).error().code(), StatusCode::kNotFound);
  api.Put("/api/v1/nodes/cp-1",
          {{"metadata",
            {{"name", "cp-1"}, {"labels", {{"node-role.kubernetes.io/control-plane", ""}}}}},
           {"status",
            {{"addresses",
              {{{"type", "Hostname"}, {"address", "cp-1"}},
               {{"type", "InternalIP"}, {"address", "10.0.0.1"}}}}}}});
  api.Put("/api/v1/nodes/w-1",
          {{"metadata", {{"name", "w-1"}}},
           {"status", {{"addresses", {{{"type", "InternalIP"}, {"address", "10.0.0.9"}}}}}}});
  EXPECT_THAT(*EtcdEndpointsFromCluster(api), ElementsAre("https://10.0.0.1:2379"));
  api.Put("/api/v1/namespaces/kube-system/pods/etcd-cp-1",
          {{"metadata",
            {{"name", "etcd-cp-1"},
             {"labels", {{"component", "etcd"}, {"tier", "control-plane"}}},
             {"annotations",
              {{"kubeadm.kubernetes.io/etcd.advertise-client-urls", "https://10.0.0.5:2379"}}}}}});
  EXPECT_THAT(*EtcdEndpointsFromCluster(api), ElementsAre("https://10.0.0.5:2379"));
}

TEST_F(EtcdJoinTest, ControlPlaneJoinWritesTheManifestForTheExistingCluster) {
  MakeControlPlane();
  for (const char* file :
       {"etcd/ca.crt", "apiserver-etcd-client.crt", "apiserver-etcd-client.key"}) {
    ASSERT_TRUE(
        fs_.WriteFile(std::string("/etc/kubernetes/pki/") + file, std::string("PEM ") + file, 0600)
            .ok());
  }
  admin_api_.Put(
      "/api/v1/nodes/cp-1",
      {{"metadata",
        {{"name", "cp-1"}, {"labels", {{"node-role.kubernetes.io/control-plane", ""}}}}},
       {"status", {{"addresses", {{{"type", "InternalIP"}, {"address", "10.0.0.1"}}}}}}});
  gateway_.unsynced_promotes = 2;
  Status s = RunJoinEtcd(data_);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(etcd_configs_.size(), 1u);
  EXPECT_THAT(etcd_configs_[0].endpoints, ElementsAre("https://10.0.0.1:2379"));
  EXPECT_EQ(etcd_configs_[0].ca_pem, "PEM etcd/ca.crt");
  EXPECT_EQ(etcd_configs_[0].client_key_pem, "PEM apiserver-etcd-client.key");
  const std::string manifest = Read("/etc/kubernetes/manifests/etcd.yaml");
  EXPECT_THAT(manifest,
              HasSubstr("--initial-cluster=cp-1=https://10.0.0.1:2380,cp-2=https://10.0.0.2:2380"));
  EXPECT_THAT(manifest, HasSubstr("--initial-cluster-state=existing"));
  EXPECT_THAT(manifest, HasSubstr("--name=cp-2"));
  EXPECT_EQ(Mode("/var/lib/etcd"), 0700u);
  EXPECT_FALSE(gateway_.members[1].value("isLearner", true));
  EXPECT_THAT(out_.str(),
              HasSubstr("[etcd] Announced new etcd member joining to the existing etcd cluster\n"
                        "[etcd] Creating static Pod manifest for \"etcd\"\n"));
  EXPECT_THAT(
      out_.str(),
      HasSubstr(
          "[etcd] Waiting for the new etcd member to join the cluster. This can take up to 2m0s"));
  // A second run (after a crash) changes nothing in etcd and writes the same manifest.
  gateway_.calls.clear();
  ASSERT_TRUE(RunJoinEtcd(data_).ok());
  EXPECT_EQ(Read("/etc/kubernetes/manifests/etcd.yaml"), manifest);
  EXPECT_EQ(std::count(gateway_.calls.begin(), gateway_.calls.end(), "/v3/cluster/member/add"), 0);
}

TEST_F(EtcdJoinTest, WorkerAndExternalEtcdDoNothing) {
  ASSERT_TRUE(RunJoinEtcd(data_).ok());
  MakeControlPlane();
  cluster_.init_cfg.cluster.etcd.local.reset();
  cluster_.init_cfg.cluster.etcd.external = config::ExternalEtcd{{"https://etcd:2379"}, "", "", ""};
  ASSERT_TRUE(RunJoinEtcd(data_).ok());
  EXPECT_THAT(
      out_.str(),
      HasSubstr("[control-plane-join] Using external etcd - no local stacked instance added"));
  EXPECT_TRUE(etcd_.seen().empty());
}

TEST_F(EtcdJoinTest, CheckEtcdAsksEveryMember) {
  MakeControlPlane();
  for (const char* file :
       {"etcd/ca.crt", "apiserver-etcd-client.crt", "apiserver-etcd-client.key"}) {
    ASSERT_TRUE(fs_.WriteFile(std::string("/etc/kubernetes/pki/") + file, "PEM", 0600).ok());
  }
  admin_api_.Put(
      "/api/v1/nodes/cp-1",
      {{"metadata",
        {{"name", "cp-1"}, {"labels", {{"node-role.kubernetes.io/control-plane", ""}}}}},
       {"status", {{"addresses", {{{"type", "InternalIP"}, {"address", "10.0.0.1"}}}}}}});
  ASSERT_TRUE(RunCheckEtcd(data_).ok());
  EXPECT_THAT(etcd_.Urls(), ElementsAre("https://10.0.0.1:2379/v3/cluster/member/list",
                                        "https://10.0.0.1:2379/v3/maintenance/status"));
  EXPECT_THAT(out_.str(), HasSubstr("[check-etcd] Checking that the etcd cluster is healthy"));
}

}  // namespace
}  // namespace kkadm::phases
