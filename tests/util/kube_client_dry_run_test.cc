// DryRunKubeClient answers as kubeadm's dry-run client: what the run wrote is read back, other
// objects are not found (Nodes excepted), and every call is printed.
#include "app/util/kube_client_dry_run.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/phases/bootstraptoken/bootstrap_token.h"
#include "app/phases/bootstraptoken/token.h"
#include "app/util/kube_apply.h"

namespace kkadm::util {
namespace {

using nlohmann::json;

const char* kSecrets = "/api/v1/namespaces/kube-system/secrets";

class DryRunKubeClientTest : public ::testing::Test {
 protected:
  std::ostringstream out_;
  Printer printer_{out_};
  DryRunKubeClient client_{printer_};
};

TEST_F(DryRunKubeClientTest, ObjectsNotWrittenAreNotFound) {
  auto secret = client_.Get(std::string(kSecrets) + "/bootstrap-token-abcdef");
  ASSERT_FALSE(secret.has_value());
  EXPECT_EQ(secret.error().code(), StatusCode::kNotFound);
  EXPECT_EQ(secret.error().message(), "secrets \"bootstrap-token-abcdef\" not found");
  auto role = client_.Get("/apis/rbac.authorization.k8s.io/v1/clusterroles/x");
  EXPECT_EQ(role.error().message(), "clusterroles.rbac.authorization.k8s.io \"x\" not found");
  EXPECT_EQ(out_.str(),
            "[dryrun] Would perform action GET on resource "
            "/api/v1/namespaces/kube-system/secrets/bootstrap-token-abcdef\n"
            "[dryrun] Would perform action GET on resource "
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/x\n");
}

TEST_F(DryRunKubeClientTest, WritesAreReadBack) {
  json map = ConfigMap(kKubeSystem, "kubeadm-config", {{"a", "1"}});
  ASSERT_TRUE(client_.Create("/api/v1/namespaces/kube-system/configmaps", map).has_value());
  const std::string path = "/api/v1/namespaces/kube-system/configmaps/kubeadm-config";
  auto read = client_.Get(path);
  ASSERT_TRUE(read.has_value()) << read.error().message();
  EXPECT_EQ((*read)["data"]["a"], "1");
  EXPECT_EQ((*read)["metadata"]["resourceVersion"], "1");

  auto again = client_.Create("/api/v1/namespaces/kube-system/configmaps", map);
  EXPECT_EQ(again.error().code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.error().message(), "configmaps \"kubeadm-config\" already exists");

  map["data"]["a"] = "2";
  ASSERT_TRUE(CreateOrUpdate(client_, map).ok());
  EXPECT_EQ((*client_.Get(path))["data"]["a"], "2");
  EXPECT_EQ((*client_.Get(path))["metadata"]["resourceVersion"], "2");

  ASSERT_TRUE(client_.Delete(path).ok());
  EXPECT_EQ(client_.Get(path).error().code(), StatusCode::kNotFound);
}

TEST_F(DryRunKubeClientTest, ListsHoldTheCollectionsWrites) {
  ASSERT_TRUE(client_.Create(kSecrets, {{"kind", "Secret"}, {"metadata", {{"name", "a"}}}}));
  ASSERT_TRUE(client_.Create("/api/v1/namespaces/default/secrets",
                             {{"kind", "Secret"}, {"metadata", {{"name", "b"}}}}));
  auto list = client_.Get(std::string(kSecrets) + "?fieldSelector=type%3Dx");
  ASSERT_TRUE(list.has_value());
  ASSERT_EQ((*list)["items"].size(), 1u);
  EXPECT_EQ((*list)["items"][0]["metadata"]["name"], "a");
  EXPECT_TRUE((*client_.Get("/api/v1/nodes"))["items"].empty());
}

// kubeadm's GetNodeReactor: mark-control-plane and the CRI socket annotation read the Node.
TEST_F(DryRunKubeClientTest, NodesAreServed) {
  auto node = client_.Get("/api/v1/nodes/cp-1");
  ASSERT_TRUE(node.has_value());
  EXPECT_EQ((*node)["metadata"]["name"], "cp-1");
  EXPECT_EQ((*node)["metadata"]["labels"]["kubernetes.io/hostname"], "cp-1");
}

// What made `kkadm init --dry-run --upload-certs` fail: a fresh token must not "already exist".
TEST_F(DryRunKubeClientTest, NewTokenCanBeCreatedAndReadBack) {
  auto token = phases::ParseBootstrapToken("abcdef.0123456789abcdef");
  ASSERT_TRUE(token.has_value());
  ASSERT_TRUE(phases::UpdateOrCreateTokens(client_, /*fail_if_exists=*/true, {*token},
                                           std::chrono::system_clock::now())
                  .ok());
  auto secret = client_.Get(std::string(kSecrets) + "/bootstrap-token-abcdef");
  ASSERT_TRUE(secret.has_value());
  EXPECT_EQ((*secret)["metadata"]["name"], "bootstrap-token-abcdef");
  Status twice =
      phases::UpdateOrCreateTokens(client_, true, {*token}, std::chrono::system_clock::now());
  EXPECT_EQ(twice.code(), StatusCode::kAlreadyExists);
}

TEST_F(DryRunKubeClientTest, NonResourceReadsAnswerOk) {
  EXPECT_EQ(*client_.GetRaw("/livez"), "ok");
}

}  // namespace
}  // namespace kkadm::util
