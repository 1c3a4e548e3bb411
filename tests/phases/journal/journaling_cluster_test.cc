// JournalingKubeClient and JournalingEtcdJoiner over a journal on a real file system: what the
// cluster accepted is recorded for the running phase, once per object, and read back by the next
// command; what it refused is not.
#include "app/phases/journal/journaling_cluster.h"

#include <gtest/gtest.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/memory_kube_client.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::journal {
namespace {

class FixedEtcdJoiner final : public EtcdJoiner {
 public:
  Status CheckHealth(const config::InitConfiguration&) override { return Status(); }
  Result<LearnerAdded> AddMember(const config::InitConfiguration&, const std::string&,
                                 const std::string&) override {
    return LearnerAdded{.id = 0x8e9e05c52164694dULL, .is_learner = true, .initial_cluster = {}};
  }
  Status PromoteAndWait(const config::InitConfiguration&, const LearnerAdded&,
                        const std::string&) override {
    return Status();
  }
};

class JournalingClusterTest : public ::testing::Test {
 protected:
  JournalingClusterTest() : fs_(dir_.path()), journal_(fs_, clock_) {
    EXPECT_TRUE(journal_.Load().ok());
    EXPECT_TRUE(journal_.BeginRun("join", "v0-test", "boot").ok());
    EXPECT_TRUE(journal_.PhaseStarted("control-plane-join/etcd", "fp", {}).ok());
  }
  JournalState Reloaded() {
    Journal next(fs_, clock_);
    EXPECT_TRUE(next.Load().ok());
    return next.state();
  }

  kkadm::testing::TempDir dir_;
  util::RealFileSystem fs_;
  kkadm::testing::FakeClock clock_;
  Journal journal_;
};

TEST_F(JournalingClusterTest, AcceptedChangesAreRecordedOncePerObject) {
  auto memory = std::make_unique<kkadm::testing::MemoryKubeClient>();
  kkadm::testing::MemoryKubeClient& api = *memory;
  JournalingKubeClient client(std::move(memory), journal_);
  const std::string configmaps = "/api/v1/namespaces/kube-system/configmaps";
  const nlohmann::json object = {{"metadata", {{"name", "kubeadm-config"}}}};
  ASSERT_TRUE(client.Create(configmaps, object).has_value());
  const std::string path = configmaps + "/kubeadm-config";
  const nlohmann::json stored = api.At(path);  // a copy: Update replaces what At refers to
  ASSERT_TRUE(client.Update(path, stored).has_value());
  EXPECT_FALSE(client.Create(configmaps, object).has_value());  // exists: refused, not recorded
  api.inject = [](const std::string&, const std::string&) { return Unavailable("down"); };
  EXPECT_FALSE(client.Delete(configmaps + "/other").ok());

  const JournalState state = Reloaded();
  const PhaseRecord* phase = state.Find("join", "control-plane-join/etcd");
  ASSERT_NE(phase, nullptr);
  ASSERT_EQ(phase->objects.size(), 1u);
  EXPECT_EQ(phase->objects[0].verb, "create");
  EXPECT_EQ(phase->objects[0].path, configmaps + "/kubeadm-config");
}

TEST_F(JournalingClusterTest, TheAddedEtcdMemberIsRecordedByItsHexId) {
  FixedEtcdJoiner etcd;
  JournalingEtcdJoiner joiner(etcd, journal_);
  ASSERT_TRUE(joiner.AddMember({}, "cp-2", "https://10.123.0.12:2380").has_value());
  const JournalState state = Reloaded();
  const PhaseRecord* phase = state.Find("join", "control-plane-join/etcd");
  ASSERT_NE(phase, nullptr);
  ASSERT_EQ(phase->etcd_members.size(), 1u);
  EXPECT_EQ(phase->etcd_members[0].id, "8e9e05c52164694d");
  EXPECT_EQ(phase->etcd_members[0].name, "cp-2");
  EXPECT_EQ(phase->etcd_members[0].peer_url, "https://10.123.0.12:2380");
}

}  // namespace
}  // namespace kkadm::phases::journal
