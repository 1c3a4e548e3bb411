// RestoreSnapshot with a recording process runner over a real node directory: the snapshot is
// checked first, the restore tool gets etcd's arguments (revision bump with etcdutl), and the
// manifest is rewritten to run the restored member alone.
#include "app/phases/etcd_snapshot/snapshot_restore.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/phases/etcd_snapshot/backups.h"
#include "app/util/file_system_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/golden.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

class RecordingRunner final : public util::ProcessRunner {
 public:
  std::vector<util::ProcessRequest> runs;
  util::ProcessOutcome outcome{.exited = true, .exit_code = 0};
  Result<util::ProcessOutcome> Run(const util::ProcessRequest& request) override {
    runs.push_back(request);
    return outcome;
  }
};

// kkadm's golden etcd manifest of a node joined to a cluster (advertising 192.0.2.10).
std::string JoinedEtcdManifest() {
  std::ifstream in(testing::GoldenPath("v1beta4-etcd.yaml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  const std::string single = "--initial-cluster=cp-1=https://192.0.2.10:2380";
  yaml.replace(yaml.find(single), single.size(),
               "--initial-cluster=cp-0=https://192.0.2.11:2380,cp-1=https://192.0.2.10:2380\n"
               "    - --initial-cluster-state=existing");
  return yaml;
}

class RestoreSnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string db(4096, 'r');
    util::Sha256 sha;
    sha.Update(db);
    ASSERT_TRUE(fs_.WriteFile("/backup.db", db + sha.Finish(), 0600).ok());
    ASSERT_TRUE(fs_.WriteFile("/bad.db", db + std::string(32, 'x'), 0600).ok());
    ASSERT_TRUE(fs_.WriteFile(kManifest, JoinedEtcdManifest(), 0600).ok());
  }

  Result<RestoreResult> Restore(RestoreOptions options) {
    std::ostringstream out;
    util::Printer printer(out);
    Result<RestoreResult> result = RestoreSnapshot(host_, runner_, printer, options);
    printed_ = out.str();
    return result;
  }

  static constexpr char kManifest[] = "/etc/kubernetes/manifests/etcd.yaml";
  testing::TempDir tmp_;
  util::RealFileSystem fs_{tmp_.path()};
  testing::FakeInitSystem init_;
  testing::FakeClock clock_;
  testing::FakeMachine machine_;
  testing::FakeHostSeams seams_;
  util::Host host_ = seams_.Over(fs_, init_, clock_, machine_);
  RecordingRunner runner_;
  std::string printed_;
};

TEST_F(RestoreSnapshotTest, RunsEtcdutlAndPointsTheManifestAtTheNewDataDir) {
  Result<RestoreResult> result =
      Restore({.snapshot = "/backup.db", .data_dir = "/var/lib/etcd-new", .tool = "/x/etcdutl"});
  ASSERT_TRUE(result) << result.error().message();
  ASSERT_EQ(runner_.runs.size(), 1u);
  EXPECT_EQ(runner_.runs[0].path, "/x/etcdutl");
  EXPECT_EQ(runner_.runs[0].args,
            (std::vector<std::string>{"snapshot", "restore", tmp_.path() + "/backup.db", "--name",
                                      "cp-1", "--initial-cluster", "cp-1=https://192.0.2.10:2380",
                                      "--initial-advertise-peer-urls", "https://192.0.2.10:2380",
                                      "--data-dir", tmp_.path() + "/var/lib/etcd-new",
                                      "--bump-revision", "1000000000", "--mark-compacted"}));
  const std::string manifest = *fs_.ReadFile(kManifest);
  EXPECT_NE(manifest.find("    - --initial-cluster=cp-1=https://192.0.2.10:2380\n"),
            std::string::npos);
  EXPECT_NE(manifest.find("    - --initial-cluster-state=new\n"), std::string::npos);
  EXPECT_NE(manifest.find("      path: /var/lib/etcd-new\n"), std::string::npos);
  EXPECT_EQ(manifest.find("      path: /var/lib/etcd\n"), std::string::npos);
  EXPECT_NE(manifest.find("    - --data-dir=/var/lib/etcd\n"), std::string::npos);  // in the Pod
  EXPECT_NE(printed_.find("etcd runs member cp-1 alone from /var/lib/etcd-new"), std::string::npos);
}

TEST_F(RestoreSnapshotTest, RefusesABadSnapshotBeforeAnything) {
  Result<RestoreResult> result = Restore({.snapshot = "/bad.db", .tool = "/x/etcdutl"});
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message().find("integrity check failed"), std::string::npos);
  EXPECT_TRUE(runner_.runs.empty());
  EXPECT_EQ(*fs_.ReadFile(kManifest), JoinedEtcdManifest());
}

TEST_F(RestoreSnapshotTest, EtcdctlNeedsTheBumpSkipped) {
  Result<RestoreResult> result = Restore({.snapshot = "/backup.db", .tool = "/usr/bin/etcdctl"});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(runner_.runs.empty());
  result = Restore({.snapshot = "/backup.db", .tool = "/usr/bin/etcdctl", .bump_revision = false});
  ASSERT_TRUE(result) << result.error().message();
  EXPECT_EQ(result->data_dir, "/var/lib/etcd-restored-" + BackupName(clock_.Now()));
  EXPECT_EQ(runner_.runs.at(0).args.back(), tmp_.path() + result->data_dir);
  EXPECT_EQ(runner_.runs.at(0).env, std::vector<std::string>{"ETCDCTL_API=3"});
}

TEST_F(RestoreSnapshotTest, ToolFailureLeavesTheManifestAlone) {
  runner_.outcome = util::ProcessOutcome{.exited = true, .exit_code = 1, .err = "a\nboom\n"};
  Result<RestoreResult> result = Restore({.snapshot = "/backup.db", .tool = "/x/etcdutl"});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "/x/etcdutl snapshot restore failed (exit code 1): boom");
  EXPECT_EQ(*fs_.ReadFile(kManifest), JoinedEtcdManifest());
}

TEST_F(RestoreSnapshotTest, AnExistingDataDirIsRefused) {
  ASSERT_TRUE(fs_.MakeDirs("/var/lib/etcd-new", 0700).ok());
  Result<RestoreResult> result =
      Restore({.snapshot = "/backup.db", .data_dir = "/var/lib/etcd-new", .tool = "/x/etcdutl"});
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE(runner_.runs.empty());
}

TEST_F(RestoreSnapshotTest, DryRunSaysWhatItWouldRun) {
  Result<RestoreResult> result =
      Restore({.snapshot = "/backup.db", .tool = "/x/etcdutl", .dry_run = true});
  ASSERT_TRUE(result);
  EXPECT_TRUE(runner_.runs.empty());
  EXPECT_NE(printed_.find("Would run: /x/etcdutl snapshot restore"), std::string::npos);
  EXPECT_EQ(*fs_.ReadFile(kManifest), JoinedEtcdManifest());
}

}  // namespace
}  // namespace kkadm::phases::etcd_snapshot
