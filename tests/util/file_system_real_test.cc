#include "app/util/file_system_real.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "tests/fakes/log_capture.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

using Writes = RealFileSystem::Writes;

// Every behaviour holds whether writes are finished in place or behind.
class RealFileSystemTest : public ::testing::TestWithParam<Writes> {};

INSTANTIATE_TEST_SUITE_P(BothWays, RealFileSystemTest,
                         ::testing::Values(Writes::kInPlace, Writes::kBehind),
                         [](const ::testing::TestParamInfo<Writes>& writes) {
                           return writes.param == Writes::kInPlace ? "InPlace" : "Behind";
                         });

// -v 5 names each node file written or removed (the host path), never its content.
TEST(RealFileSystemLogTest, DebugLogNamesEachFileWrittenOrRemoved) {
  kkadm::testing::LogCapture log(spdlog::level::debug);
  kkadm::testing::TempDir dir;
  RealFileSystem fs(dir.path());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "SECRET", 0600).ok());
  ASSERT_TRUE(fs.Remove("/etc/kubernetes/pki/ca.key").ok());
  EXPECT_EQ(log.text(), "D writing " + dir.path() +
                            "/etc/kubernetes/pki/ca.key (6 bytes, mode 0600)\n" + "D removing " +
                            dir.path() + "/etc/kubernetes/pki/ca.key\n");
}

TEST_P(RealFileSystemTest, WritesAtomicallyUnderRootWithMode) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
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
TEST_P(RealFileSystemTest, SyncReportsDirectoriesThatCannotBeSynced) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.crt", "c", 0644).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "k", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/admin.conf", "a", 0600).ok());
  EXPECT_TRUE(fs.Sync().ok());
  EXPECT_TRUE(fs.Sync().ok());  // nothing left to sync

  ASSERT_TRUE(fs.WriteFile("/gone/f", "x", 0644).ok());
  std::filesystem::remove_all(fs.HostPath("/gone"));  // HostPath: the write is done
  EXPECT_TRUE(fs.Sync().ok());

  ASSERT_TRUE(fs.WriteFile("/swapped/f", "x", 0644).ok());
  std::filesystem::remove_all(fs.HostPath("/swapped"));
  ASSERT_TRUE(fs.WriteFile("/swapped", "now a file", 0644).ok());
  Status s = fs.Sync();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(root.path() + "/swapped"), std::string::npos) << s.message();
  EXPECT_TRUE(fs.Sync().ok());  // reported once
}

TEST_P(RealFileSystemTest, MissingFileIsNotFound) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  EXPECT_EQ(fs.ReadFile("/nope").error().code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs.Exists("/nope"));
  EXPECT_TRUE(fs.Remove("/nope").ok());
}

TEST_P(RealFileSystemTest, RemoveDeletesSymlinkNotTarget) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  ASSERT_TRUE(fs.WriteFile("/outside/keep", "x", 0644).ok());
  ASSERT_TRUE(fs.MakeDirs("/etc/kubernetes", 0755).ok());
  std::filesystem::create_symlink(fs.HostPath("/outside/keep"),
                                  root.path() + "/etc/kubernetes/link");
  EXPECT_EQ(fs.Stat("/etc/kubernetes/link")->type, FileType::kSymlink);
  ASSERT_TRUE(fs.Remove("/etc/kubernetes/link").ok());
  EXPECT_FALSE(fs.Exists("/etc/kubernetes/link"));
  EXPECT_TRUE(fs.Exists("/outside/keep"));
}

// As kubeadm's os.MkdirAll: a directory that exists keeps its mode (a dataDir of "/" once made
// the node's root 0700).
TEST_P(RealFileSystemTest, MakeDirsKeepsTheModeOfAnExistingDirectory) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  ASSERT_TRUE(fs.MakeDirs("/var/lib/etcd", 0755).ok());
  ASSERT_TRUE(fs.MakeDirs("/var/lib/etcd", 0700).ok());
  EXPECT_EQ(fs.Stat("/var/lib/etcd")->mode, 0755u);
}

// The umask takes no bits from the modes kkadm gives the directories it makes.
TEST_P(RealFileSystemTest, DirectoryModesDoNotDependOnTheUmask) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  const mode_t old_umask = ::umask(0);
  ASSERT_TRUE(fs.MakeDirs("/var/lib/etcd", 0700).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "k", 0600).ok());
  ASSERT_TRUE(fs.Sync().ok());
  ::umask(077);
  ASSERT_TRUE(fs.MakeDirs("/etc/kubernetes/manifests", 0750).ok());
  ::umask(old_umask);
  EXPECT_EQ(fs.Stat("/var/lib")->mode, 0755u);
  EXPECT_EQ(fs.Stat("/var/lib/etcd")->mode, 0700u);
  EXPECT_EQ(fs.Stat("/etc/kubernetes")->mode, 0755u);
  EXPECT_EQ(fs.Stat("/etc/kubernetes/pki")->mode, 0755u);
  EXPECT_EQ(fs.Stat("/etc/kubernetes/manifests")->mode, 0750u);
}

// Later calls see the writes behind them in order: the last of many writes to one file wins, and
// a directory lists no temporary files.
TEST_P(RealFileSystemTest, ReadsSeeEarlierWrites) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(
        fs.WriteFile("/etc/kubernetes/pki/f" + std::to_string(i % 5), std::to_string(i), 0600)
            .ok());
  }
  EXPECT_EQ(*fs.ReadFile("/etc/kubernetes/pki/f4"), "49");
  EXPECT_EQ(*fs.ListDir("/etc/kubernetes/pki"),
            (std::vector<std::string>{"f0", "f1", "f2", "f3", "f4"}));
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/admin.conf", "a", 0600).ok());
  std::ifstream direct(fs.HostPath("/etc/kubernetes/admin.conf"));  // as another program would
  std::string text((std::istreambuf_iterator<char>(direct)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "a");
}

// A write that cannot be finished leaves no temporary file and the old content; finished in place
// WriteFile says so, behind it the next call naming the file and Sync do. Calls naming other
// paths, the directory above included, are not failed by it.
TEST_P(RealFileSystemTest, AWriteThatFailsIsReported) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/manifests/etcd.yaml", "x", 0600).ok());
  // rename() cannot put a file over a directory that has entries.
  Status written = fs.WriteFile("/etc/kubernetes/manifests", "not a directory", 0600);
  if (GetParam() == Writes::kInPlace) {
    EXPECT_FALSE(written.ok());
  } else {
    EXPECT_TRUE(written.ok());
    EXPECT_TRUE(fs.Exists("/etc/kubernetes"));
    Status seen = fs.Stat("/etc/kubernetes/manifests").status();
    EXPECT_FALSE(seen.ok());
    EXPECT_NE(
        seen.message().find("renaming into place " + root.path() + "/etc/kubernetes/manifests"),
        std::string::npos)
        << seen.message();
    Status synced = fs.Sync();
    EXPECT_EQ(synced.message(), seen.message());
    EXPECT_TRUE(fs.Sync().ok());  // reported once
  }
  EXPECT_EQ(*fs.ListDir("/etc/kubernetes"), std::vector<std::string>{"manifests"});
  EXPECT_EQ(*fs.ReadFile("/etc/kubernetes/manifests/etcd.yaml"), "x");
}

// A new write of a file whose last write failed replaces the failure.
TEST(RealFileSystemWritesBehindTest, ARewriteReplacesAFailedWrite) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), Writes::kBehind);
  ASSERT_TRUE(fs.WriteFile("/d/inner", "x", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/d", "file", 0600).ok());  // fails behind: /d is a directory
  EXPECT_FALSE(fs.Stat("/d").has_value());
  ASSERT_TRUE(fs.Remove("/d/inner").ok());
  ASSERT_TRUE(fs.Remove("/d").ok());
  ASSERT_TRUE(fs.WriteFile("/d", "file", 0600).ok());
  EXPECT_EQ(*fs.ReadFile("/d"), "file");
  // Sync still finds that the directory /d/inner went into is no longer one, but not the failure.
  EXPECT_EQ(fs.Sync().message().find("renaming"), std::string::npos);
}

// Waiting is by path component: a pending /a/bc is not under /a/b, a pending /a/b/c is.
TEST(RealFileSystemWritesBehindTest, WaitsForPathsAtOrUnderTheOneNamed) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), Writes::kBehind);
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(fs.WriteFile("/a/bc", std::to_string(i), 0600).ok());
    ASSERT_TRUE(fs.WriteFile("/a/b/c", std::to_string(i), 0600).ok());
    EXPECT_EQ(*fs.ListDir("/a/b"), std::vector<std::string>{"c"});
    EXPECT_EQ(*fs.ReadFile("/a/b/c"), std::to_string(i));
  }
  EXPECT_TRUE(fs.Sync().ok());
  EXPECT_EQ(*fs.ReadFile("/a/bc"), "19");
}

// What is still behind when the file system goes is finished first.
TEST(RealFileSystemWritesBehindTest, DestructorFinishesWrites) {
  testing::TempDir root;
  {
    RealFileSystem fs(root.path(), Writes::kBehind);
    for (int i = 0; i < 20; ++i) {
      ASSERT_TRUE(fs.WriteFile("/d/f" + std::to_string(i), "x", 0644).ok());
    }
  }
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root.path() + "/d")) {
    EXPECT_EQ(entry.path().filename().string().find("kkadm-tmp"), std::string::npos);
    ++files;
  }
  EXPECT_EQ(files, 20);
}

// AppendFile keeps the file open between appends (a journal's records); a file replaced or
// removed through the same file system is appended to anew, never its old inode.
TEST_P(RealFileSystemTest, AppendsReachTheFileAsItIsAfterWritesAndRemovals) {
  testing::TempDir root;
  RealFileSystem fs(root.path(), GetParam());
  ASSERT_TRUE(fs.AppendFile("/var/lib/kkadm/journal", "a\n", 0600).ok());
  // In place at once, even when writes finish behind: a record announces what comes next.
  std::ifstream made(root.path() + "/var/lib/kkadm/journal");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(made), {}), "a\n");
  ASSERT_TRUE(fs.AppendFile("/var/lib/kkadm/journal", "b\n", 0600).ok());
  EXPECT_EQ(*fs.ReadFile("/var/lib/kkadm/journal"), "a\nb\n");
  ASSERT_TRUE(fs.WriteFile("/var/lib/kkadm/journal", "new\n", 0600).ok());
  ASSERT_TRUE(fs.AppendFile("/var/lib/kkadm/journal", "c\n", 0600).ok());
  EXPECT_EQ(*fs.ReadFile("/var/lib/kkadm/journal"), "new\nc\n");
  ASSERT_TRUE(fs.Remove("/var/lib/kkadm/journal").ok());
  ASSERT_TRUE(fs.AppendFile("/var/lib/kkadm/journal", "d\n", 0600).ok());
  EXPECT_EQ(*fs.ReadFile("/var/lib/kkadm/journal"), "d\n");
  struct stat st {};
  ASSERT_EQ(::stat((root.path() + "/var/lib/kkadm/journal").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

}  // namespace
}  // namespace kkadm::util
