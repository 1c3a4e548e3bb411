// kube_helpers (create-or-update/retain/mutate, node patches, waiting) against MemoryKubeClient,
// and kube_paths.
#include "app/util/kube_helpers.h"

#include <gtest/gtest.h>

#include "app/util/kube_paths.h"
#include "tests/fakes/memory_kube_client.h"

namespace kkadm::util {
namespace {

using testing::MemoryKubeClient;

const char kCmPath[] = "/api/v1/namespaces/kube-system/configmaps/kubeadm-config";

nlohmann::json ConfigMap(const std::string& value) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", "kubeadm-config"}, {"namespace", "kube-system"}}},
          {"data", {{"ClusterConfiguration", value}}}};
}

class FakeClock final : public Clock {
 public:
  TimePoint Now() const override { return now_; }
  void Sleep(std::chrono::milliseconds duration) override {
    now_ += duration;
    ++sleeps;
  }
  int sleeps = 0;

 private:
  TimePoint now_{};
};

TEST(KubePathsTest, ResourcePath) {
  EXPECT_EQ(ResourcePath("v1", "configmaps", "kube-system", "x"),
            "/api/v1/namespaces/kube-system/configmaps/x");
  EXPECT_EQ(ResourcePath("rbac.authorization.k8s.io/v1", "clusterrolebindings", "", "y"),
            "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/y");
  EXPECT_EQ(ResourcePath("apps/v1", "daemonsets", "kube-system", ""),
            "/apis/apps/v1/namespaces/kube-system/daemonsets");
  EXPECT_EQ(ResourcePath("v1", "nodes", "", ""), "/api/v1/nodes");
}

TEST(KubePathsTest, PathForObject) {
  EXPECT_EQ(*PathForObject(ConfigMap("a")), kCmPath);
  EXPECT_EQ(*CollectionForObject(ConfigMap("a")), "/api/v1/namespaces/kube-system/configmaps");
  nlohmann::json crb = {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                        {"kind", "ClusterRoleBinding"},
                        {"metadata", {{"name", "kubeadm:get-nodes"}, {"namespace", "ignored"}}}};
  EXPECT_EQ(*PathForObject(crb),
            "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/kubeadm:get-nodes");
  nlohmann::json csr = {{"apiVersion", "certificates.k8s.io/v1"},
                        {"kind", "CertificateSigningRequest"},
                        {"metadata", {{"name", "c"}}}};
  EXPECT_EQ(*PathForObject(csr), "/apis/certificates.k8s.io/v1/certificatesigningrequests/c");
  nlohmann::json unknown = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}}};
  EXPECT_EQ(PathForObject(unknown).error().code(), StatusCode::kNotFound);
  nlohmann::json nameless = {{"apiVersion", "v1"}, {"kind", "Node"}};
  EXPECT_EQ(PathForObject(nameless).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(PathForObject(nlohmann::json::array()).error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(*PluralForKind("DaemonSet"), "daemonsets");
}

TEST(CreateOrUpdateTest, CreatesThenReplacesWithLiveResourceVersion) {
  MemoryKubeClient client;
  ASSERT_TRUE(CreateOrUpdate(client, ConfigMap("one")).ok());
  ASSERT_TRUE(CreateOrUpdate(client, ConfigMap("two")).ok());
  EXPECT_EQ(client.At(kCmPath)["data"]["ClusterConfiguration"], "two");
  EXPECT_EQ(client.calls, (std::vector<std::string>{
                              "POST /api/v1/namespaces/kube-system/configmaps",
                              "POST /api/v1/namespaces/kube-system/configmaps",
                              std::string("GET ") + kCmPath, std::string("PUT ") + kCmPath}));
}

TEST(CreateOrUpdateTest, RetriesAConflictFromAFreshGet) {
  MemoryKubeClient client;
  client.Put(kCmPath, ConfigMap("old"));
  int puts = 0;
  client.inject = [&](const std::string& method, const std::string&) -> Status {
    if (method == "PUT" && puts++ == 0) return Aborted("the object has been modified");
    return Status::Ok();
  };
  ASSERT_TRUE(CreateOrUpdate(client, ConfigMap("new")).ok());
  EXPECT_EQ(client.At(kCmPath)["data"]["ClusterConfiguration"], "new");
  EXPECT_EQ(puts, 2);
}

TEST(CreateOrUpdateTest, PersistentConflictIsReturned) {
  MemoryKubeClient client;
  client.Put(kCmPath, ConfigMap("old"));
  client.inject = [](const std::string& method, const std::string&) -> Status {
    return method == "PUT" ? Aborted("modified") : Status::Ok();
  };
  EXPECT_EQ(CreateOrUpdate(client, ConfigMap("new")).code(), StatusCode::kAborted);
}

TEST(CreateOrUpdateTest, OtherErrorsPassThrough) {
  MemoryKubeClient client;
  client.inject = [](const std::string&, const std::string&) -> Status {
    return PermissionDenied("configmaps is forbidden");
  };
  Status status = CreateOrUpdate(client, ConfigMap("x"));
  EXPECT_EQ(status.code(), StatusCode::kPermissionDenied);
  EXPECT_EQ(client.calls.size(), 1u);
}

TEST(CreateOrRetainTest, KeepsAnExistingObject) {
  MemoryKubeClient client;
  ASSERT_TRUE(CreateOrRetain(client, ConfigMap("first")).ok());
  ASSERT_TRUE(CreateOrRetain(client, ConfigMap("second")).ok());
  EXPECT_EQ(client.At(kCmPath)["data"]["ClusterConfiguration"], "first");
  EXPECT_EQ(client.calls.size(), 2u);
}

TEST(CreateOrMutateTest, CreatesOrMutatesTheLiveObject) {
  MemoryKubeClient client;
  auto add_key = [](nlohmann::json& obj) {
    obj["data"]["extra"] = "yes";
    return Status::Ok();
  };
  ASSERT_TRUE(CreateOrMutate(client, ConfigMap("created"), add_key).ok());
  EXPECT_FALSE(client.At(kCmPath)["data"].contains("extra"));
  ASSERT_TRUE(CreateOrMutate(client, ConfigMap("ignored"), add_key).ok());
  EXPECT_EQ(client.At(kCmPath)["data"]["ClusterConfiguration"], "created");
  EXPECT_EQ(client.At(kCmPath)["data"]["extra"], "yes");
}

TEST(CreateOrMutateTest, MutateErrorStops) {
  MemoryKubeClient client;
  client.Put(kCmPath, ConfigMap("x"));
  Status status = CreateOrMutate(client, ConfigMap("x"),
                                 [](nlohmann::json&) { return InvalidArgument("cannot mutate"); });
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(client.calls.back(), std::string("GET ") + kCmPath);
}

TEST(MutateObjectTest, MissingObjectIsNotFound) {
  MemoryKubeClient client;
  Status status = MutateObject(client, kCmPath, [](nlohmann::json&) { return Status::Ok(); });
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "configmaps \"kubeadm-config\" not found");
}

nlohmann::json Node() {
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", "n1"},
            {"labels", {{"kubernetes.io/hostname", "n1"}, {"old", "x"}}},
            {"annotations", {{"a", "1"}}}}},
          {"spec", {{"taints", {{{"key", "k"}, {"effect", "NoExecute"}}}}}}};
}

TEST(NodePatchTest, DiffsLabelsAnnotationsAndTaints) {
  nlohmann::json before = Node();
  before["metadata"]["resourceVersion"] = "7";
  nlohmann::json after = before;
  after["metadata"]["labels"].erase("old");
  after["metadata"]["labels"]["node-role.kubernetes.io/control-plane"] = "";
  after["spec"]["taints"].push_back(
      {{"key", "node-role.kubernetes.io/control-plane"}, {"effect", "NoSchedule"}});
  nlohmann::json patch = NodePatch(before, after);
  EXPECT_EQ(patch["metadata"]["labels"],
            nlohmann::json({{"old", nullptr}, {"node-role.kubernetes.io/control-plane", ""}}));
  EXPECT_FALSE(patch["metadata"].contains("annotations"));
  EXPECT_EQ(patch["metadata"]["resourceVersion"], "7");
  EXPECT_EQ(patch["spec"]["taints"].size(), 2u);
  EXPECT_TRUE(NodePatch(before, before).empty());
}

TEST(PatchNodeTest, SendsAStrategicPatchOnceAndIsIdempotent) {
  MemoryKubeClient client;
  client.Put("/api/v1/nodes/n1", Node());
  auto mark = [](nlohmann::json& node) {
    node["metadata"]["annotations"]["kubeadm.alpha.kubernetes.io/cri-socket"] =
        "unix:///run/containerd/containerd.sock";
  };
  ASSERT_TRUE(PatchNode(client, "n1", mark).ok());
  EXPECT_EQ(
      client.At(
          "/api/v1/nodes/n1")["metadata"]["annotations"]["kubeadm.alpha.kubernetes.io/cri-socket"],
      "unix:///run/containerd/containerd.sock");
  EXPECT_EQ(client.calls.back(), "PATCH /api/v1/nodes/n1");
  ASSERT_TRUE(PatchNode(client, "n1", mark).ok());
  EXPECT_EQ(client.calls.back(), "GET /api/v1/nodes/n1");
}

TEST(PatchNodeTest, RetriesConflictsAndReportsMissingNode) {
  MemoryKubeClient client;
  client.Put("/api/v1/nodes/n1", Node());
  int patches = 0;
  client.inject = [&](const std::string& method, const std::string&) -> Status {
    return method == "PATCH" && patches++ < 2 ? Aborted("modified") : Status::Ok();
  };
  ASSERT_TRUE(
      PatchNode(client, "n1", [](nlohmann::json& n) { n["metadata"]["labels"]["l"] = ""; }).ok());
  EXPECT_EQ(patches, 3);
  EXPECT_EQ(PatchNode(client, "n2", [](nlohmann::json&) {}).code(), StatusCode::kNotFound);
}

TEST(WaitForObjectTest, PollsUntilPresentAndReady) {
  MemoryKubeClient client;
  FakeClock clock;
  int gets = 0;
  client.inject = [&](const std::string&, const std::string& path) -> Status {
    if (++gets == 3) client.Put(path, ConfigMap("v"));
    return Status::Ok();
  };
  auto got = WaitForObject(client, clock, kCmPath, std::chrono::milliseconds(500),
                           std::chrono::seconds(10));
  ASSERT_TRUE(got) << got.error().message();
  EXPECT_EQ(clock.sleeps, 2);
}

TEST(WaitForObjectTest, TimesOutWithTheLastError) {
  MemoryKubeClient client;
  client.Put(kCmPath, ConfigMap("v"));
  FakeClock clock;
  auto got =
      WaitForObject(client, clock, kCmPath, std::chrono::milliseconds(500), std::chrono::seconds(2),
                    [](const nlohmann::json& o) { return o["data"].contains("never"); });
  ASSERT_FALSE(got);
  EXPECT_EQ(got.error().code(), StatusCode::kUnavailable);
  EXPECT_NE(got.error().message().find("not ready"), std::string::npos);
  EXPECT_EQ(clock.sleeps, 4);
}

}  // namespace
}  // namespace kkadm::util
