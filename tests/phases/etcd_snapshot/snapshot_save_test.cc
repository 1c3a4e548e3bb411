// SaveBackup over a fake etcd gateway and a real node directory: what a backup holds, its modes,
// the requests and credentials, the refusal of a bad snapshot, retention and the dry run.
#include "app/phases/etcd_snapshot/snapshot_save.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "app/util/crypto.h"
#include "app/util/file_system_real.h"
#include "app/util/kubeconfig.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

std::string SaveTestStream(const std::string& db, bool corrupt) {
  util::Sha256 sha;
  sha.Update(db);
  std::string hash = sha.Finish();
  if (corrupt) hash[0] ^= 1;
  return nlohmann::json({{"result", {{"blob", util::Base64Encode(db)}}}}).dump() + "\n" +
         nlohmann::json({{"result", {{"blob", util::Base64Encode(hash)}}}}).dump() + "\n";
}

class SaveBackupTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* file :
         {"/etc/kubernetes/pki/etcd/ca.crt", "/etc/kubernetes/pki/ca.key",
          "/etc/kubernetes/pki/apiserver-etcd-client.crt",
          "/etc/kubernetes/pki/apiserver-etcd-client.key", "/etc/kubernetes/admin.conf",
          "/etc/kubernetes/manifests/kube-apiserver.yaml"}) {
      ASSERT_TRUE(fs_.WriteFile(file, std::string("content of ") + file, 0644).ok());
    }
    seams_.network.http.handler = [this](const testing::FakeHttpServer::Seen& seen) {
      if (seen.request.url.ends_with("/v3/maintenance/status")) {
        return Result<util::HttpResponse>(
            util::HttpResponse{200, R"({"header":{"revision":"7"},"version":"3.4.23"})", {}});
      }
      return Result<util::HttpResponse>(util::HttpResponse{200, SaveTestStream(db_, corrupt_), {}});
    };
  }

  Result<SavedBackup> Save(SaveOptions options = {}) {
    std::ostringstream out;
    util::Printer printer(out);
    Result<SavedBackup> saved = SaveBackup(host_, printer, options);
    printed_ = out.str();
    return saved;
  }

  testing::TempDir tmp_;
  util::RealFileSystem fs_{tmp_.path()};
  testing::FakeInitSystem init_;
  testing::FakeClock clock_;
  testing::FakeMachine machine_;
  testing::FakeHostSeams seams_;
  util::Host host_ = seams_.Over(fs_, init_, clock_, machine_);
  std::string db_ = std::string(8192, 'e');
  bool corrupt_ = false;
  std::string printed_;
};

TEST_F(SaveBackupTest, SavesSnapshotNodeFilesAndDescription) {
  Result<SavedBackup> saved = Save();
  ASSERT_TRUE(saved) << saved.error().message();
  EXPECT_EQ(saved->dir, std::string(kDefaultBackupRoot) + "/" + BackupName(clock_.Now()));
  util::Sha256 sha;
  sha.Update(db_);
  EXPECT_EQ(*fs_.ReadFile(saved->dir + "/snapshot.db"), db_ + sha.Finish());
  EXPECT_EQ(fs_.Stat(saved->dir + "/snapshot.db")->mode, 0600u);
  EXPECT_EQ(fs_.Stat(saved->dir)->mode, 0700u);
  EXPECT_EQ(fs_.Stat(kDefaultBackupRoot)->mode, 0700u);
  const std::string key = saved->dir + "/node/etc/kubernetes/pki/ca.key";
  EXPECT_EQ(*fs_.ReadFile(key), "content of /etc/kubernetes/pki/ca.key");
  EXPECT_EQ(fs_.Stat(key)->mode, 0600u);
  EXPECT_TRUE(fs_.Exists(saved->dir + "/node/etc/kubernetes/admin.conf"));
  EXPECT_TRUE(fs_.Exists(saved->dir + "/node/etc/kubernetes/manifests/kube-apiserver.yaml"));
  Result<BackupInfo> info = ParseBackupInfo(*fs_.ReadFile(saved->dir + "/backup.json"));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->revision, 7u);
  EXPECT_EQ(info->db_size, db_.size());
  EXPECT_EQ(info->sha256, util::Sha256Hex(db_));
  EXPECT_EQ(info->etcd_version, "3.4.23");
  EXPECT_EQ(info->files.size(), 6u);
  // kubeadm's own etcd client identity, at the local member.
  const auto& seen = seams_.network.http.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].request.url, "https://127.0.0.1:2379/v3/maintenance/snapshot");
  EXPECT_EQ(seen[1].request.method, "POST");
  EXPECT_EQ(seen[1].options.client_cert_pem,
            "content of /etc/kubernetes/pki/apiserver-etcd-client.crt");
  EXPECT_EQ(seen[1].options.ca_pem, "content of /etc/kubernetes/pki/etcd/ca.crt");
  EXPECT_NE(printed_.find("[etcd-snapshot] Saved the snapshot (8192 bytes, revision 7"),
            std::string::npos);
}

TEST_F(SaveBackupTest, ABadSnapshotLeavesNoBackup) {
  corrupt_ = true;
  Result<SavedBackup> saved = Save();
  ASSERT_FALSE(saved);
  EXPECT_EQ(saved.error().code(), StatusCode::kFailedPrecondition);
  const std::string dir = std::string(kDefaultBackupRoot) + "/" + BackupName(clock_.Now());
  EXPECT_FALSE(fs_.Exists(dir + "/backup.json"));
  EXPECT_EQ(seams_.remover.asked, std::vector<std::string>{dir});
}

TEST_F(SaveBackupTest, EtcdDownIsUnavailable) {
  seams_.network.http.handler = [](const testing::FakeHttpServer::Seen& seen) {
    return Result<util::HttpResponse>(Unavailable("POST " + seen.request.url + ": refused"));
  };
  Result<SavedBackup> saved = Save();
  ASSERT_FALSE(saved);
  EXPECT_EQ(saved.error().code(), StatusCode::kUnavailable);
  // Asked before anything is written: nothing to remove, nothing said.
  EXPECT_FALSE(fs_.Exists(kDefaultBackupRoot));
  EXPECT_TRUE(seams_.remover.asked.empty());
  EXPECT_EQ(printed_, "");
}

TEST_F(SaveBackupTest, RetentionRemovesTheOldestPastTheCount) {
  SaveOptions options;
  options.backup_root = "/b";
  options.retention = {2, std::chrono::hours(0)};
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(Save(options)) << i;
    clock_.Advance(std::chrono::minutes(1));
  }
  // The fake remover removes nothing: the third save asked for the first backup only.
  EXPECT_EQ(seams_.remover.asked,
            std::vector<std::string>{"/b/" + BackupName(clock_.Now() - std::chrono::minutes(3))});
  EXPECT_NE(printed_.find("Removed old backup"), std::string::npos);
}

TEST_F(SaveBackupTest, NeverWritesOverABackup) {
  ASSERT_TRUE(Save());
  Result<SavedBackup> again = Save();
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code(), StatusCode::kAlreadyExists);
}

TEST_F(SaveBackupTest, DryRunDoesNothing) {
  SaveOptions options;
  options.dry_run = true;
  ASSERT_TRUE(Save(options));
  EXPECT_TRUE(seams_.network.http.seen().empty());
  EXPECT_FALSE(fs_.Exists(kDefaultBackupRoot));
  EXPECT_NE(printed_.find("[etcd-snapshot] Would save a snapshot of etcd at "
                          "https://127.0.0.1:2379"),
            std::string::npos);
}

}  // namespace
}  // namespace kkadm::phases::etcd_snapshot
