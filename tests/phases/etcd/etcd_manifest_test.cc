#include "app/phases/etcd/etcd_manifest.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/controlplane/pod_fixture.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

class EtcdManifestTest : public ::testing::Test {
 protected:
  kkadm::testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  config::InitConfiguration cfg_ = kkadm::testing::DefaultInitConfig();
  StaticPodInput Input() { return kkadm::testing::InputFor(cfg_, fs_); }
};

bool Has(const std::vector<std::string>& command, const std::string& flag) {
  return std::find(command.begin(), command.end(), flag) != command.end();
}

TEST_F(EtcdManifestTest, JoiningMemberListsTheClusterAndIsExisting) {
  auto command = EtcdCommand(
      Input(), {{"cp-0", "https://192.0.2.9:2380"}, {"cp-1", "https://192.0.2.10:2380"}});
  EXPECT_TRUE(
      Has(command, "--initial-cluster=cp-0=https://192.0.2.9:2380,cp-1=https://192.0.2.10:2380"));
  EXPECT_TRUE(Has(command, "--initial-cluster-state=existing"));
}

TEST_F(EtcdManifestTest, ExtraArgOverridesDefault) {
  cfg_.cluster.etcd.local->extra_args = {{"snapshot-count", "5000"}, {"name", "custom"}};
  auto command = EtcdCommand(Input(), {});
  EXPECT_TRUE(Has(command, "--snapshot-count=5000"));
  EXPECT_FALSE(Has(command, "--snapshot-count=10000"));
  EXPECT_TRUE(Has(command, "--name=custom"));
}

TEST_F(EtcdManifestTest, ProbesFollowFirstListenMetricsURL) {
  cfg_.cluster.etcd.local->extra_args = {
      {"listen-metrics-urls", "https://[fd00::5]:12381,http://127.0.0.1:2381"}};
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& get = (*pod)["spec"]["containers"][0]["livenessProbe"]["httpGet"];
  EXPECT_EQ(get["host"], "fd00::5");
  EXPECT_EQ(get["port"], 12381);
  EXPECT_EQ(get["scheme"], "HTTPS");
}

TEST_F(EtcdManifestTest, ProbesWithoutHostUseLocalhost) {
  cfg_.cluster.etcd.local->extra_args = {{"listen-metrics-urls", "http://:3000"}};
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& get = (*pod)["spec"]["containers"][0]["startupProbe"]["httpGet"];
  EXPECT_EQ(get["host"], "127.0.0.1");
  EXPECT_EQ(get["port"], 3000);
  EXPECT_EQ(get["scheme"], "HTTP");
}

TEST_F(EtcdManifestTest, CustomImageAndDataDir) {
  cfg_.cluster.etcd.local->image_repository = "quay.io/coreos";
  cfg_.cluster.etcd.local->image_tag = "v3.4.23";
  cfg_.cluster.etcd.local->data_dir = "/data/etcd";
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& container = (*pod)["spec"]["containers"][0];
  EXPECT_EQ(container["image"], "quay.io/coreos/etcd:v3.4.23");
  EXPECT_EQ(container["volumeMounts"][0]["mountPath"], "/data/etcd");
  EXPECT_TRUE(Has(container["command"].get<std::vector<std::string>>(), "--data-dir=/data/etcd"));
}

}  // namespace
}  // namespace kkadm::phases
