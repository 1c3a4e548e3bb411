// RealFileSystem under a node root is a root (issue 19 §2): links planted in the node root resolve
// inside it as in a chroot, writes never follow the last component, and reads of node files are
// bounded and refuse what is not a regular file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

using Writes = RealFileSystem::Writes;
namespace stdfs = std::filesystem;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every file and directory below `dir`, with file contents: what must not change.
std::string Snapshot(const std::string& dir) {
  std::string out;
  for (const auto& entry : stdfs::recursive_directory_iterator(dir)) {
    out +=
        entry.path().string() + (entry.is_regular_file() ? "=" + Slurp(entry.path()) : "") + "\n";
  }
  return out;
}

// A node root and, beside it, a directory of this machine the node root's links name.
class RootfsLinksTest : public ::testing::TestWithParam<Writes> {
 protected:
  void SetUp() override {
    std::ofstream(outside_.path() + "/ca.key") << "the machine's own key";
    stdfs::create_directories(outside_.path() + "/k8s/pki");
    std::ofstream(outside_.path() + "/k8s/admin.conf") << "the machine's own admin.conf";
    stdfs::create_directories(root_.path() + "/etc");
    before_ = Snapshot(outside_.path());
  }
  std::string InRoot(const std::string& path) const { return root_.path() + path; }
  bool OutsideUnchanged() const { return Snapshot(outside_.path()) == before_; }

  testing::TempDir root_;
  testing::TempDir outside_;
  std::string before_;
};

INSTANTIATE_TEST_SUITE_P(BothWays, RootfsLinksTest,
                         ::testing::Values(Writes::kInPlace, Writes::kBehind),
                         [](const ::testing::TestParamInfo<Writes>& writes) {
                           return writes.param == Writes::kInPlace ? "InPlace" : "Behind";
                         });

// etc/kubernetes -> /<outside>/k8s, absolute as an image has it: the node root's /<outside>/k8s.
TEST_P(RootfsLinksTest, AnAbsoluteLinkNamesAPathOfTheNodeRoot) {
  stdfs::create_directory_symlink(outside_.path() + "/k8s", InRoot("/etc/kubernetes"));
  RealFileSystem fs(root_.path(), GetParam());
  // Its target does not exist in the node root: like mkdir -p in a chroot, no directory there.
  Status refused = fs.WriteFile("/etc/kubernetes/pki/ca.key", "key", 0600);
  EXPECT_EQ(refused.message(),
            "creating directory " + InRoot("/etc/kubernetes") + ": not a directory");
  EXPECT_EQ(fs.ReadFile("/etc/kubernetes/admin.conf").error().code(), StatusCode::kNotFound);

  stdfs::create_directories(InRoot(outside_.path() + "/k8s"));
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "key", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/admin.conf", "conf", 0600).ok());
  ASSERT_TRUE(fs.AppendFile("/etc/kubernetes/log", "line\n", 0600).ok());
  ASSERT_TRUE(fs.MakeDirs("/etc/kubernetes/manifests", 0700).ok());
  ASSERT_TRUE(fs.Sync().ok());
  EXPECT_EQ(Slurp(InRoot(outside_.path() + "/k8s/pki/ca.key")), "key");
  EXPECT_EQ(*fs.ReadFile("/etc/kubernetes/admin.conf"), "conf");
  EXPECT_EQ(*fs.ListDir("/etc/kubernetes"),
            (std::vector<std::string>{"admin.conf", "log", "manifests", "pki"}));
  EXPECT_EQ(fs.Stat("/etc/kubernetes/manifests")->mode, 0700u);
  // What a program kkadm starts is given: the resolved path.
  EXPECT_EQ(fs.HostPath("/etc/kubernetes/admin.conf"), InRoot(outside_.path() + "/k8s/admin.conf"));
  EXPECT_EQ(fs.HostPath("/etc/kubernetes/new/file"), InRoot(outside_.path() + "/k8s/new/file"));
  ASSERT_TRUE(fs.Remove("/etc/kubernetes/admin.conf").ok());
  EXPECT_FALSE(stdfs::exists(InRoot(outside_.path() + "/k8s/admin.conf")));
  EXPECT_TRUE(OutsideUnchanged());
}

// etc/kubernetes/pki -> ../../../..<outside>/k8s/pki: `..` stops at the node root.
TEST_P(RootfsLinksTest, ARelativeLinkClimbsNoHigherThanTheNodeRoot) {
  stdfs::create_directories(InRoot("/etc/kubernetes"));
  std::string up;
  for (int i = 0; i < 20; ++i) up += "../";
  stdfs::create_directory_symlink(up + outside_.path().substr(1) + "/k8s/pki",
                                  InRoot("/etc/kubernetes/pki"));
  stdfs::create_directories(InRoot(outside_.path() + "/k8s/pki"));
  RealFileSystem fs(root_.path(), GetParam());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "key", 0600).ok());
  ASSERT_TRUE(fs.Sync().ok());
  EXPECT_EQ(Slurp(InRoot(outside_.path() + "/k8s/pki/ca.key")), "key");
  EXPECT_TRUE(OutsideUnchanged());
}

// A link in the file's own place is read inside the root, replaced by a write (never written
// through), refused by an append, and removed itself.
TEST_P(RootfsLinksTest, TheLastComponentIsNeverFollowedForWrites) {
  stdfs::create_directories(InRoot("/etc/kubernetes/pki"));
  const std::string key = InRoot("/etc/kubernetes/pki/ca.key");
  stdfs::create_symlink(outside_.path() + "/ca.key", key);
  stdfs::create_symlink(outside_.path() + "/ca.key", InRoot("/etc/kubernetes/pki/log"));
  RealFileSystem fs(root_.path(), GetParam());
  EXPECT_EQ(fs.ReadFile("/etc/kubernetes/pki/ca.key").error().code(), StatusCode::kNotFound);
  EXPECT_EQ(fs.Stat("/etc/kubernetes/pki/ca.key")->type, FileType::kSymlink);
  EXPECT_FALSE(fs.AppendFile("/etc/kubernetes/pki/log", "line\n", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.key", "new key", 0600).ok());
  ASSERT_TRUE(fs.Sync().ok());
  EXPECT_TRUE(stdfs::is_regular_file(stdfs::symlink_status(key)));
  EXPECT_EQ(Slurp(key), "new key");
  ASSERT_TRUE(fs.Remove("/etc/kubernetes/pki/log").ok());
  EXPECT_TRUE(OutsideUnchanged());
}

// Removal through a linked directory removes what the node root holds there, nothing outside.
TEST_P(RootfsLinksTest, RemovalThroughALinkStaysInTheRoot) {
  stdfs::create_directory_symlink(outside_.path() + "/k8s", InRoot("/etc/kubernetes"));
  RealFileSystem fs(root_.path(), GetParam());
  EXPECT_TRUE(fs.Remove("/etc/kubernetes/admin.conf").ok());  // absent in the root
  EXPECT_TRUE(fs.Remove("/etc/kubernetes/pki").ok());
  EXPECT_FALSE(fs.Exists("/etc/kubernetes/admin.conf"));
  EXPECT_TRUE(OutsideUnchanged());
}

// A link whose target stays in the node root is followed there, as it would be by the node.
TEST_P(RootfsLinksTest, AnInRootLinkIsFollowed) {
  stdfs::create_directories(InRoot("/srv/k8s"));
  stdfs::create_directory_symlink("/srv/k8s", InRoot("/etc/kubernetes"));
  RealFileSystem fs(root_.path(), GetParam());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.crt", "crt", 0644).ok());
  ASSERT_TRUE(fs.Sync().ok());
  EXPECT_EQ(Slurp(InRoot("/srv/k8s/pki/ca.crt")), "crt");
  EXPECT_EQ(fs.HostPath("/etc/kubernetes/pki/ca.crt"), InRoot("/srv/k8s/pki/ca.crt"));
}

// A FIFO where a node file should be is refused at once (a read would wait for a writer
// forever), and so are a directory and a file past RealFileSystem::kMaxFileBytes.
TEST(RealFileSystemReadTest, RefusesWhatIsNotARegularFileOrTooLarge) {
  testing::TempDir root;
  RealFileSystem fs(root.path());
  ASSERT_TRUE(fs.MakeDirs("/etc/kubernetes", 0755).ok());
  ASSERT_EQ(::mkfifo((root.path() + "/etc/kubernetes/admin.conf").c_str(), 0600), 0);
  EXPECT_EQ(fs.ReadFile("/etc/kubernetes/admin.conf").error().ToString(),
            "reading " + root.path() + "/etc/kubernetes/admin.conf: a FIFO");
  EXPECT_EQ(fs.ReadFile("/etc").error().ToString(), "reading " + root.path() + "/etc: a directory");
  const std::string big = root.path() + "/etc/kubernetes/big";
  std::ofstream(big).close();
  ASSERT_EQ(::truncate(big.c_str(), RealFileSystem::kMaxFileBytes + 1), 0);  // sparse
  EXPECT_EQ(fs.ReadFile("/etc/kubernetes/big").error().ToString(),
            "reading " + big + ": over the limit of 67108864 bytes");
  ASSERT_EQ(::truncate(big.c_str(), RealFileSystem::kMaxFileBytes), 0);
  EXPECT_EQ(fs.ReadFile("/etc/kubernetes/big")->size(), RealFileSystem::kMaxFileBytes);
}

}  // namespace
}  // namespace kkadm::util
