// Backup names, backup.json, listing, retention and file verification.
#include "app/phases/etcd_snapshot/backups.h"

#include <gtest/gtest.h>

#include <fstream>

#include "app/util/crypto.h"
#include "app/util/file_system_real.h"
#include "app/util/rfc3339.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::etcd_snapshot {
namespace {

using std::chrono::hours;

TimePoint At(const char* rfc3339) {
  return *util::ParseRfc3339(rfc3339, util::Rfc3339Case::kUpper);
}

TEST(BackupNameTest, SortsByTimeAndReadsBack) {
  const TimePoint t = At("2026-11-26T18:22:33Z") + std::chrono::milliseconds(45);
  EXPECT_EQ(BackupName(t), "20261126T182233.045Z");
  EXPECT_EQ(TimeOfBackupName("20261126T182233.045Z"), t);
  EXPECT_FALSE(TimeOfBackupName("my-backup"));
  EXPECT_FALSE(TimeOfBackupName("20261126T182233.04xZ"));
}

TEST(BackupInfoTest, RoundTrips) {
  BackupInfo info;
  info.created = At("2026-11-26T18:22:33Z") + std::chrono::milliseconds(7);
  info.db_size = 20480;
  info.sha256 = "ab12";
  info.revision = 42;
  info.etcd_version = "3.4.23";
  info.endpoint = "https://127.0.0.1:2379";
  info.files = {"/etc/kubernetes/pki/ca.crt"};
  Result<BackupInfo> back = ParseBackupInfo(BackupInfoJson(info));
  ASSERT_TRUE(back) << back.error().message();
  EXPECT_EQ(back->created, info.created);
  EXPECT_EQ(back->db_size, 20480u);
  EXPECT_EQ(back->revision, 42u);
  EXPECT_EQ(back->files, info.files);
  EXPECT_FALSE(ParseBackupInfo("{}"));
  EXPECT_FALSE(ParseBackupInfo("not json"));
}

BackupEntry Complete(const std::string& name) {
  BackupInfo info;
  info.created = *TimeOfBackupName(name);
  return BackupEntry{name, "/b/" + name, info, 0};
}

BackupEntry Incomplete(const std::string& name) { return BackupEntry{name, "/b/" + name, {}, 0}; }

TEST(RetentionTest, KeepsTheNewestCount) {
  std::vector<BackupEntry> entries = {
      Complete("20261120T000000.000Z"), Complete("20261121T000000.000Z"),
      Complete("20261122T000000.000Z"), Complete("20261123T000000.000Z")};
  const TimePoint now = At("2026-11-23T01:00:00Z");
  EXPECT_EQ(BackupsToRemove(entries, {2, hours(0)}, now, ""),
            (std::vector<std::string>{"20261120T000000.000Z", "20261121T000000.000Z"}));
  EXPECT_TRUE(BackupsToRemove(entries, {0, hours(0)}, now, "").empty());
  // The backup just made stays whatever the count.
  EXPECT_EQ(BackupsToRemove(entries, {1, hours(0)}, now, "20261120T000000.000Z"),
            (std::vector<std::string>{"20261121T000000.000Z", "20261122T000000.000Z"}));
}

// Saves within one second: backup.json's milliseconds order them.
TEST(RetentionTest, OrdersBackupsOfOneSecondByTheirMilliseconds) {
  std::vector<BackupEntry> entries;
  for (const char* name :
       {"20261120T000000.900Z", "20261120T000000.100Z", "20261120T000000.500Z"}) {
    BackupInfo info;
    info.created = *TimeOfBackupName(name);
    Result<BackupInfo> read = ParseBackupInfo(BackupInfoJson(info));
    ASSERT_TRUE(read);
    entries.push_back(BackupEntry{std::string("x") + name, "", *read, 0});
  }
  EXPECT_EQ(BackupsToRemove(entries, {1, hours(0)}, At("2026-11-20T00:00:01Z"), ""),
            (std::vector<std::string>{"x20261120T000000.100Z", "x20261120T000000.500Z"}));
}

TEST(RetentionTest, RemovesOldOnesButNeverTheNewest) {
  std::vector<BackupEntry> entries = {Complete("20261101T000000.000Z"),
                                      Complete("20261120T000000.000Z")};
  EXPECT_EQ(BackupsToRemove(entries, {0, hours(24 * 7)}, At("2026-11-21T00:00:00Z"), ""),
            (std::vector<std::string>{"20261101T000000.000Z"}));
  // Both past the age: the newest is still kept, so a node always has one backup.
  EXPECT_EQ(BackupsToRemove(entries, {0, hours(24)}, At("2026-12-30T00:00:00Z"), ""),
            (std::vector<std::string>{"20261101T000000.000Z"}));
}

TEST(RetentionTest, IncompleteOnesGoAfterTheGrace) {
  std::vector<BackupEntry> entries = {Incomplete("20261120T000000.000Z"),
                                      Incomplete("20261120T120000.000Z"), Incomplete("by-hand"),
                                      Complete("20261120T110000.000Z")};
  EXPECT_EQ(BackupsToRemove(entries, {5, hours(0)}, At("2026-11-20T12:30:00Z"), ""),
            (std::vector<std::string>{"20261120T000000.000Z"}));
}

void WriteHostFile(const std::string& path, const std::string& data) {
  std::ofstream(path, std::ios::binary) << data;
}

TEST(ListBackupsTest, ReadsCompleteAndIncompleteOnes) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  EXPECT_TRUE(ListBackups(fs, "/b")->empty());  // no root yet
  BackupInfo info;
  info.created = At("2026-11-26T18:22:33Z");
  info.db_size = 4096;
  ASSERT_TRUE(fs.WriteFile("/b/one/backup.json", BackupInfoJson(info), 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/b/one/snapshot.db", std::string(4128, 'x'), 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/b/two/snapshot.db", "half", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/b/stray-file", "x", 0600).ok());
  Result<std::vector<BackupEntry>> entries = ListBackups(fs, "/b");
  ASSERT_TRUE(entries) << entries.error().message();
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].name, "one");
  ASSERT_TRUE((*entries)[0].info);
  EXPECT_EQ((*entries)[0].info->db_size, 4096u);
  EXPECT_EQ((*entries)[0].snapshot_bytes, 4128u);
  EXPECT_EQ((*entries)[1].name, "two");
  EXPECT_FALSE((*entries)[1].info);
}

TEST(VerifySnapshotFileTest, ChecksTheTrailingHash) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  const std::string db(3 * 1024 * 1024, 'd');  // over the 1 MiB read piece
  util::Sha256 sha;
  sha.Update(db);
  std::string file = db + sha.Finish();
  WriteHostFile(tmp.path() + "/good.db", file);
  Result<SnapshotDigest> digest = VerifySnapshotFile(fs, "/good.db");
  ASSERT_TRUE(digest) << digest.error().message();
  EXPECT_EQ(digest->sha256, util::Sha256Hex(db));
  file[file.size() - 1] ^= 1;
  WriteHostFile(tmp.path() + "/bad.db", file);
  Result<SnapshotDigest> bad = VerifySnapshotFile(fs, "/bad.db");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(bad.error().message().find("integrity check failed"), std::string::npos);
  EXPECT_EQ(VerifySnapshotFile(fs, "/absent.db").error().code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace kkadm::phases::etcd_snapshot
