// remove-etcd-member: the facts read from etcd.yaml, the member removal against a fake etcd
// gateway (util::EtcdClient unchanged), the data directory choice and its cleanup.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/phases/etcd/etcd_member_removal.h"
#include "app/phases/reset/cleanup_node_phase.h"
#include "app/phases/reset/remove_etcd_member_phase.h"
#include "tests/phases/golden.h"
#include "tests/phases/reset/reset_fixture.h"

namespace kkadm::phases::reset {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

std::string Golden(const std::string& name) {
  std::ifstream in(testing::GoldenPath(name));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The golden etcd manifest of a node advertising 192.0.2.10, joined to a cluster with 192.0.2.11.
std::string JoinedManifest(const std::string& data_dir = "/var/lib/etcd") {
  std::string text = Golden("v1beta4-etcd.yaml");
  auto replace = [&text](const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
      text.replace(at, from.size(), to);
    }
  };
  replace("--initial-cluster=cp-1=https://192.0.2.10:2380",
          "--initial-cluster=cp-0=https://192.0.2.11:2380,cp-1=https://192.0.2.10:2380");
  replace("path: /var/lib/etcd", "path: " + data_dir);
  return text;
}

TEST(ParseEtcdManifestTest, GoldenManifest) {
  auto facts = ParseEtcdManifest(Golden("v1beta4-etcd.yaml"));
  ASSERT_TRUE(facts) << facts.error().message();
  EXPECT_EQ(facts->data_dir, "/var/lib/etcd");
  EXPECT_EQ(facts->peer_url, "https://192.0.2.10:2380");
  EXPECT_THAT(facts->client_urls, ElementsAre("https://192.0.2.10:2379", "https://127.0.0.1:2379"));
  EXPECT_EQ(facts->pki_dir, "/etc/kubernetes/pki");
}

TEST(ParseEtcdManifestTest, OtherMembersBecomeFallbackEndpoints) {
  auto facts = ParseEtcdManifest(JoinedManifest());
  ASSERT_TRUE(facts) << facts.error().message();
  EXPECT_THAT(facts->client_urls, ElementsAre("https://192.0.2.10:2379", "https://127.0.0.1:2379",
                                              "https://192.0.2.11:2379"));
  auto ipv6 = ParseEtcdManifest(Golden("ipv6-etcd.yaml"));
  ASSERT_TRUE(ipv6) << ipv6.error().message();
  EXPECT_EQ(ipv6->peer_url, "https://[fd00::10]:2380");
}

TEST(ParseEtcdManifestTest, RejectsWhatIsNotAnEtcdPod) {
  EXPECT_FALSE(ParseEtcdManifest("kind: [unclosed"));
  EXPECT_FALSE(ParseEtcdManifest("just a string"));
  EXPECT_FALSE(
      ParseEtcdManifest("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - command: [etcd]\n"));
  std::string no_volume = Golden("v1beta4-etcd.yaml");
  // The volume, not the container's mount of it (which comes first).
  no_volume.replace(no_volume.find("name: etcd-data", no_volume.find("volumes:")), 15,
                    "name: other-vol");
  auto facts = ParseEtcdManifest(no_volume);
  ASSERT_FALSE(facts);
  EXPECT_THAT(facts.error().message(), HasSubstr("etcd-data"));
}

class RemoveEtcdMemberTest : public testing::ResetFixture {
 protected:
  std::unique_ptr<util::EtcdClient> Client() {
    util::EtcdClientConfig config;
    config.endpoints = {"https://192.0.2.10:2379"};
    config.clock = &clock_;
    config.retry_timeout = std::chrono::seconds(1);
    return MakeEtcdClient(config);
  }
};

TEST_F(RemoveEtcdMemberTest, RemovesItsOwnMemberOnly) {
  etcd_.members = {{1, "cp-0", "https://192.0.2.11:2380"}, {2, "cp-1", "https://192.0.2.10:2380"}};
  auto removal = RemoveEtcdMember(*Client(), "https://192.0.2.10:2380");
  ASSERT_TRUE(removal) << removal.error().message();
  EXPECT_EQ(*removal, MemberRemoval::kRemoved);
  ASSERT_THAT(etcd_.members, SizeIs(1));
  EXPECT_EQ(etcd_.members[0].name, "cp-0");
  // Again: the member is gone, nothing to do.
  removal = RemoveEtcdMember(*Client(), "https://192.0.2.10:2380");
  ASSERT_TRUE(removal);
  EXPECT_EQ(*removal, MemberRemoval::kNotAMember);
  EXPECT_THAT(etcd_.members, SizeIs(1));
}

TEST_F(RemoveEtcdMemberTest, TheOnlyMemberStays) {
  etcd_.members = {{2, "cp-1", "https://192.0.2.10:2380"}};
  auto removal = RemoveEtcdMember(*Client(), "https://192.0.2.10:2380");
  ASSERT_TRUE(removal);
  EXPECT_EQ(*removal, MemberRemoval::kOnlyMember);
  EXPECT_THAT(etcd_.members, SizeIs(1));
  EXPECT_THAT(etcd_.calls, ElementsAre("POST https://192.0.2.10:2379/v3/cluster/member/list"));
}

TEST_F(RemoveEtcdMemberTest, ErrorsComeBack) {
  etcd_.members = {{1, "cp-0", "https://192.0.2.11:2380"}, {2, "cp-1", "https://192.0.2.10:2380"}};
  etcd_.remove_error = "etcdserver: re-configuration failed due to not enough started members";
  auto removal = RemoveEtcdMember(*Client(), "https://192.0.2.10:2380");
  ASSERT_FALSE(removal);
  EXPECT_THAT(removal.error().message(), HasSubstr("not enough started members"));
  etcd_.down = true;
  EXPECT_FALSE(RemoveEtcdMember(*Client(), "https://192.0.2.10:2380"));
}

class RunRemoveEtcdMemberTest : public testing::ResetFixture {
 protected:
  void SetUp() override {
    Write("/etc/kubernetes/pki/etcd/ca.crt", "CA");
    Write("/etc/kubernetes/pki/apiserver-etcd-client.crt", "CERT");
    Write("/etc/kubernetes/pki/apiserver-etcd-client.key", "KEY");
    Write("/var/lib/etcd/member/snap/db", "data");
    etcd_.members = {{1, "cp-0", "https://192.0.2.11:2380"},
                     {2, "cp-1", "https://192.0.2.10:2380"}};
  }
  config::ClusterConfiguration Cluster(const std::string& data_dir) {
    config::ClusterConfiguration cluster;
    cluster.etcd.local = config::LocalEtcd{};
    cluster.etcd.local->data_dir = data_dir;
    return cluster;
  }
};

TEST_F(RunRemoveEtcdMemberTest, RemovesTheMemberAndEmptiesTheDataDir) {
  Write("/etc/kubernetes/manifests/etcd.yaml", JoinedManifest());
  data_.cluster = Cluster("/var/lib/etcd");
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  ASSERT_THAT(etcd_.members, SizeIs(1));
  EXPECT_EQ(etcd_.members[0].id, 1u);
  EXPECT_TRUE(IsEmptyDir("/var/lib/etcd"));
  EXPECT_EQ(Output(), "[reset] Deleted contents of the etcd data directory: /var/lib/etcd\n");
  EXPECT_THAT(data_.left_behind, IsEmpty());
  // The node's certificates, read under the rootfs; the local endpoints first.
  EXPECT_EQ(last_etcd_config_.ca_pem, "CA");
  EXPECT_EQ(last_etcd_config_.client_cert_pem, "CERT");
  EXPECT_EQ(last_etcd_config_.client_key_pem, "KEY");
  EXPECT_EQ(last_etcd_config_.endpoints.front(), "https://192.0.2.10:2379");
  EXPECT_LE(last_etcd_config_.retry_timeout, std::chrono::seconds(5));
  EXPECT_EQ(data_.etcd_data_dir, "/var/lib/etcd");  // for cleanup-node's second pass
}

TEST_F(RunRemoveEtcdMemberTest, WithoutClusterConfigTheManifestGivesTheDataDir) {
  Write("/srv/etcd-data/member/wal/0.wal", "wal");
  Write("/etc/kubernetes/manifests/etcd.yaml", JoinedManifest("/srv/etcd-data"));
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  EXPECT_TRUE(IsEmptyDir("/srv/etcd-data"));
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));  // not the data dir of this etcd
  EXPECT_THAT(etcd_.members, SizeIs(1));                // removed with the manifest's facts
}

TEST_F(RunRemoveEtcdMemberTest, WithoutManifestOrConfigTheDefaultDataDir) {
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  EXPECT_TRUE(IsEmptyDir("/var/lib/etcd"));
  EXPECT_THAT(etcd_.calls, IsEmpty());  // no local etcd: no member to remove
  // Idempotent: the second run finds an empty directory and says so again.
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  EXPECT_THAT(data_.left_behind, IsEmpty());
}

TEST_F(RunRemoveEtcdMemberTest, ExternalEtcdIsLeftAlone) {
  data_.cluster = config::ClusterConfiguration{};
  data_.cluster->etcd.external = config::ExternalEtcd{{"https://10.0.0.9:2379"}, "", "", ""};
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  EXPECT_EQ(Output(),
            "[reset] No etcd config found. Assuming external etcd\n"
            "[reset] Please, manually reset etcd to prevent further issues\n");
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));
}

TEST_F(RunRemoveEtcdMemberTest, UnreadableManifestIsReported) {
  Write("/etc/kubernetes/manifests/etcd.yaml", "apiVersion: v1\nkind: Pod\n");
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  EXPECT_THAT(Output(), HasSubstr("Assuming external etcd"));
  ASSERT_THAT(data_.left_behind, SizeIs(1));
  EXPECT_EQ(data_.left_behind[0].what, "/etc/kubernetes/manifests/etcd.yaml");
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));
}

TEST_F(RunRemoveEtcdMemberTest, FailedRemovalIsReportedAndTheDataDirStillEmptied) {
  Write("/etc/kubernetes/manifests/etcd.yaml", JoinedManifest());
  data_.cluster = Cluster("/var/lib/etcd");
  etcd_.down = true;
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  ASSERT_THAT(data_.left_behind, SizeIs(1));
  EXPECT_EQ(data_.left_behind[0].what, "etcd member https://192.0.2.10:2380");
  EXPECT_THAT(data_.left_behind[0].reason, HasSubstr("etcdctl member remove"));
  EXPECT_TRUE(IsEmptyDir("/var/lib/etcd"));
  EXPECT_LE(clock_.slept(),
            std::chrono::seconds(6));  // bounded: a dead etcd does not hold reset up
}

TEST_F(RunRemoveEtcdMemberTest, MissingCertificatesAreReported) {
  Write("/etc/kubernetes/manifests/etcd.yaml", JoinedManifest());
  std::filesystem::remove(Host("/etc/kubernetes/pki/apiserver-etcd-client.key"));
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  ASSERT_THAT(data_.left_behind, SizeIs(1));
  EXPECT_THAT(data_.left_behind[0].reason, HasSubstr("apiserver-etcd-client.key"));
  EXPECT_THAT(etcd_.calls, IsEmpty());
}

TEST_F(RunRemoveEtcdMemberTest, DryRunOnlySaysWhatItWouldDo) {
  Write("/etc/kubernetes/manifests/etcd.yaml", JoinedManifest());
  data_.cluster = Cluster("/var/lib/etcd");
  UseDryRun();
  ASSERT_TRUE(RunRemoveEtcdMember(data_).ok());
  EXPECT_EQ(Output(),
            "[reset] Would remove the etcd member on this node from the etcd cluster\n"
            "[reset] Would delete contents of the etcd data directory: /var/lib/etcd\n");
  EXPECT_THAT(etcd_.calls, IsEmpty());
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));
  EXPECT_THAT(Output(), Not(HasSubstr("Deleted")));
  // cleanup-node's second pass over the data directory deletes nothing either, silently.
  const std::string before_cleanup = Output();
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));
  EXPECT_THAT(Output().substr(before_cleanup.size()), Not(HasSubstr("etcd")));
}

}  // namespace
}  // namespace kkadm::phases::reset
