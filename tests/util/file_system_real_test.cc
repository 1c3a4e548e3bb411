#include "app/util/file_system_real.h"

#include <sys/stat.h>

#include <filesystem>
#include <gtest/gtest.h>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

TEST(RealFileSystemTest, WritesAtomicallyUnderRootWithMode) {
  testing::TempDir root;
  RealFileSystem fs(root.path());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "secret", 0600).ok());
  EXPECT_EQ(fs.HostPath("/etc/kubernetes/pki/ca.key"), root.path() + "/etc/kubernetes/pki/ca.key");
  auto content = fs.ReadFile("/etc/kubernetes/pki/ca.key");
  ASSERT_TRUE(content.has_value());
  EXPECT_EQ(*content, "secret");
  auto info = fs.Stat("/etc/kubernetes/pki/ca.key");
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->mode, 0600u);
  // No temporary file is left beside it.
  auto names = fs.ListDir("/etc/kubernetes/pki");
  ASSERT_TRUE(names.has_value());
  EXPECT_EQ(*names, std::vector<std::string>{"ca.key"});
}

// Sync makes the directories written into durable; one that is gone since has nothing left to
// keep, one that is no longer a directory is an error.
TEST(RealFileSystemTest, SyncReportsDirectoriesThatCannotBeSynced) {
  testing::TempDir root;
  RealFileSystem fs(root.path());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.crt", "c", 0644).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "k", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/admin.conf", "a", 0600).ok());
  EXPECT_TRUE(fs.Sync().ok());
  EXPECT_TRUE(fs.Sync().ok());  // nothing left to sync

  ASSERT_TRUE(fs.WriteFile("/gone/f", "x", 0644).ok());
  std::filesystem::remove_all(root.path() + "/gone");
  EXPECT_TRUE(fs.Sync().ok());

  ASSERT_TRUE(fs.WriteFile("/swapped/f", "x", 0644).ok());
  std::filesystem::remove_all(root.path() + "/swapped");
  ASSERT_TRUE(fs.WriteFile("/swapped", "now a file", 0644).ok());
  Status s = fs.Sync();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(root.path() + "/swapped"), std::string::npos) << s.message();
  EXPECT_TRUE(fs.Sync().ok());  // reported once
}

TEST(RealFileSystemTest, MissingFileIsNotFound) {
  testing::TempDir root;
  RealFileSystem fs(root.path());
  EXPECT_EQ(fs.ReadFile("/nope").error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs.Exists("/nope"));
  EXPECT_TRUE(fs.Remove("/nope").ok());
}

TEST(RealFileSystemTest, RemoveDeletesSymlinkNotTarget) {
  testing::TempDir root;
  RealFileSystem fs(root.path());
  ASSERT_TRUE(fs.WriteFile("/outside/keep", "x", 0644).ok());
  ASSERT_TRUE(fs.MakeDirs("/etc/kubernetes", 0755).ok());
  std::filesystem::create_symlink(root.path() + "/outside/keep", root.path() + "/etc/kubernetes/link");
  EXPECT_EQ(fs.Stat("/etc/kubernetes/link")->type, FileType::kSymlink);
  ASSERT_TRUE(fs.Remove("/etc/kubernetes/link").ok());
  EXPECT_FALSE(fs.Exists("/etc/kubernetes/link"));
  EXPECT_TRUE(fs.Exists("/outside/keep"));
}

TEST(RealFileSystemTest, MakeDirsSetsModeOnExistingDirectory) {
  testing::TempDir root;
  RealFileSystem fs(root.path());
  ASSERT_TRUE(fs.MakeDirs("/var/lib/etcd", 0755).ok());
  ASSERT_TRUE(fs.MakeDirs("/var/lib/etcd", 0700).ok());
  EXPECT_EQ(fs.Stat("/var/lib/etcd")->mode, 0700u);
}

}  // namespace
}  // namespace kkadm::util
