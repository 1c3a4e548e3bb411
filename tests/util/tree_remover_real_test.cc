// RealTreeRemover on a TempDir rootfs: contents go, directories stay, symbolic links are removed as
// links and never followed, a linked directory or parent is reported and left alone.
#include "app/util/tree_remover_real.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

class TreeRemoverTest : public ::testing::Test {
 protected:
  std::string Root() const { return dir_.path() + "/root"; }
  std::string Outside() const { return dir_.path() + "/outside"; }
  void SetUp() override {
    fs::create_directories(Root());
    fs::create_directories(Outside() + "/dir/sub");
    Write(Outside() + "/secret", "keep me");
    Write(Outside() + "/dir/sub/file", "keep me too");
  }
  static void Write(const std::string& path, const std::string& text) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void ExpectOutsideIntact() const {
    EXPECT_EQ(Read(Outside() + "/secret"), "keep me");
    EXPECT_EQ(Read(Outside() + "/dir/sub/file"), "keep me too");
  }

  testing::TempDir dir_;
  std::ostringstream out_;
  Printer printer_{out_};
};

TEST_F(TreeRemoverTest, CleanDirectoryEmptiesItAndKeepsIt) {
  Write(Root() + "/etc/kubernetes/pki/ca.crt", "x");
  Write(Root() + "/etc/kubernetes/pki/etcd/ca.key", "y");
  fs::create_directories(Root() + "/etc/kubernetes/pki/empty/deeper");
  RealTreeRemover remover(Root(), printer_);
  EXPECT_THAT(remover.CleanDirectory("/etc/kubernetes/pki"), IsEmpty());
  EXPECT_TRUE(fs::is_directory(Root() + "/etc/kubernetes/pki"));
  EXPECT_TRUE(fs::is_empty(Root() + "/etc/kubernetes/pki"));
  // Again: nothing to do, nothing to report.
  EXPECT_THAT(remover.CleanDirectory("/etc/kubernetes/pki"), IsEmpty());
}

TEST_F(TreeRemoverTest, MissingDirectoryIsNotAFailure) {
  RealTreeRemover remover(Root(), printer_);
  EXPECT_THAT(remover.CleanDirectory("/var/lib/kubelet"), IsEmpty());
  EXPECT_THAT(remover.RemovePath("/etc/kubernetes/admin.conf"), IsEmpty());
}

TEST_F(TreeRemoverTest, LinksInsideAreRemovedTargetsStay) {
  const std::string kubelet = Root() + "/var/lib/kubelet";
  fs::create_directories(kubelet + "/pods/p1");
  fs::create_symlink(Outside() + "/secret", kubelet + "/pods/p1/link-to-file");
  fs::create_directory_symlink(Outside() + "/dir", kubelet + "/link-to-dir");
  fs::create_symlink("../../../../outside/dir", kubelet + "/relative-link");
  fs::create_symlink(kubelet + "/nowhere", kubelet + "/dangling");
  RealTreeRemover remover(Root(), printer_);
  EXPECT_THAT(remover.CleanDirectory("/var/lib/kubelet"), IsEmpty());
  EXPECT_TRUE(fs::is_empty(kubelet));
  ExpectOutsideIntact();
}

TEST_F(TreeRemoverTest, LinkedDirectoryIsReportedNotFollowed) {
  fs::create_directories(Root() + "/etc/kubernetes");
  fs::create_directory_symlink(Outside() + "/dir", Root() + "/etc/kubernetes/pki");
  RealTreeRemover remover(Root(), printer_);
  auto failures = remover.CleanDirectory("/etc/kubernetes/pki");
  ASSERT_THAT(failures, SizeIs(1));
  EXPECT_EQ(failures[0].path, "/etc/kubernetes/pki");
  EXPECT_THAT(failures[0].reason, HasSubstr("symbolic link (to " + Outside() + "/dir)"));
  EXPECT_TRUE(fs::is_symlink(Root() + "/etc/kubernetes/pki"));
  ExpectOutsideIntact();
}

TEST_F(TreeRemoverTest, LinkedParentIsReportedNotFollowed) {
  fs::create_directories(Outside() + "/dir/manifests");
  Write(Outside() + "/dir/manifests/etcd.yaml", "keep");
  Write(Outside() + "/dir/admin.conf", "keep");
  fs::create_directories(Root() + "/etc");
  fs::create_directory_symlink(Outside() + "/dir", Root() + "/etc/kubernetes");
  RealTreeRemover remover(Root(), printer_);
  auto failures = remover.CleanDirectory("/etc/kubernetes/manifests");
  ASSERT_THAT(failures, SizeIs(1));
  EXPECT_EQ(failures[0].path, "/etc/kubernetes");
  failures = remover.RemovePath("/etc/kubernetes/admin.conf");
  ASSERT_THAT(failures, SizeIs(1));
  EXPECT_EQ(failures[0].path, "/etc/kubernetes");
  EXPECT_EQ(Read(Outside() + "/dir/manifests/etcd.yaml"), "keep");
  EXPECT_EQ(Read(Outside() + "/dir/admin.conf"), "keep");
}

TEST_F(TreeRemoverTest, RemovePathRemovesFilesLinksAndTrees) {
  Write(Root() + "/etc/kubernetes/admin.conf", "a");
  fs::create_symlink(Outside() + "/secret", Root() + "/etc/kubernetes/kubelet.conf");
  Write(Root() + "/etc/kubernetes/scheduler.conf/odd/file",
        "a directory where a file was expected");
  RealTreeRemover remover(Root(), printer_);
  for (const char* path : {"/etc/kubernetes/admin.conf", "/etc/kubernetes/kubelet.conf",
                           "/etc/kubernetes/scheduler.conf"}) {
    EXPECT_THAT(remover.RemovePath(path), IsEmpty()) << path;
    EXPECT_FALSE(fs::exists(fs::symlink_status(Root() + path))) << path;
  }
  EXPECT_TRUE(fs::is_directory(Root() + "/etc/kubernetes"));
  ExpectOutsideIntact();
}

TEST_F(TreeRemoverTest, RootedAtSlashTakesNodePathsAsIs) {
  // The root "" is "/": the same code path as a --rootfs, only without a prefix.
  Write(Outside() + "/clean-me/a/b", "x");
  RealTreeRemover remover("", printer_);
  EXPECT_THAT(remover.CleanDirectory(Outside() + "/clean-me"), IsEmpty());
  EXPECT_TRUE(fs::is_empty(Outside() + "/clean-me"));
  EXPECT_EQ(Read(Outside() + "/secret"), "keep me");
}

TEST_F(TreeRemoverTest, RefusesTopLevelAndClimbingPaths) {
  fs::create_directories(Root() + "/etc/kubernetes");
  Write(Root() + "/etc/hostname", "node");
  RealTreeRemover remover(Root(), printer_);
  for (const char* bad : {"/", "/etc", "/etc/", "//etc", "/etc/kubernetes/../.."}) {
    auto failures = remover.CleanDirectory(bad);
    ASSERT_THAT(failures, SizeIs(1)) << bad;
    EXPECT_THAT(failures[0].reason, HasSubstr("refusing")) << bad;
  }
  EXPECT_THAT(remover.RemovePath("/"), SizeIs(1));
  EXPECT_THAT(remover.RemovePath("/etc/../etc/hostname"), SizeIs(1));
  EXPECT_EQ(Read(Root() + "/etc/hostname"), "node");
}

TEST_F(TreeRemoverTest, AFileWhereADirectoryIsExpectedIsReported) {
  Write(Root() + "/etc/kubernetes/manifests", "not a directory");
  RealTreeRemover remover(Root(), printer_);
  auto failures = remover.CleanDirectory("/etc/kubernetes/manifests");
  ASSERT_THAT(failures, SizeIs(1));
  EXPECT_THAT(failures[0].reason, HasSubstr("is not a directory"));
  EXPECT_EQ(Read(Root() + "/etc/kubernetes/manifests"), "not a directory");
}

TEST_F(TreeRemoverTest, ResetsCallsSayWhatTheyDelete) {
  Write(Root() + "/etc/kubernetes/pki/ca.crt", "x");
  Write(Root() + "/etc/kubernetes/admin.conf", "y");
  Write(Root() + "/var/lib/etcd/member/wal", "z");
  RealTreeRemover remover(Root(), printer_);
  EXPECT_THAT(remover.CleanDirectories({"/etc/kubernetes/pki", "/etc/kubernetes/manifests"}),
              IsEmpty());
  EXPECT_THAT(remover.RemoveFiles({"/etc/kubernetes/admin.conf", "/etc/kubernetes/kubelet.conf"}),
              IsEmpty());
  EXPECT_THAT(remover.CleanDirectoryOf("the etcd data directory", "/var/lib/etcd"), IsEmpty());
  // Nothing is said of a directory that is not there.
  EXPECT_THAT(remover.CleanDirectoryOf("the etcd data directory", "/var/lib/none"), IsEmpty());
  EXPECT_EQ(out_.str(),
            "[reset] Deleting contents of directories: [/etc/kubernetes/pki "
            "/etc/kubernetes/manifests]\n"
            "[reset] Deleting files: [/etc/kubernetes/admin.conf /etc/kubernetes/kubelet.conf]\n"
            "[reset] Deleted contents of the etcd data directory: /var/lib/etcd\n");
  EXPECT_TRUE(fs::is_empty(Root() + "/etc/kubernetes/pki"));
  EXPECT_FALSE(fs::exists(Root() + "/etc/kubernetes/admin.conf"));
  EXPECT_TRUE(fs::is_empty(Root() + "/var/lib/etcd"));
}

TEST_F(TreeRemoverTest, ResetsCallsReportWhatStays) {
  Write(Outside() + "/pki/ca.key", "key");
  fs::create_directories(Root() + "/etc/kubernetes");
  fs::create_directory_symlink(Outside() + "/pki", Root() + "/etc/kubernetes/pki");
  RealTreeRemover remover(Root(), printer_);
  EXPECT_THAT(remover.CleanDirectories({"/etc/kubernetes/pki"}), SizeIs(1));
  EXPECT_THAT(remover.CleanDirectoryOf("the etcd data directory", "/etc/kubernetes/pki"),
              SizeIs(1));
  EXPECT_THAT(out_.str(), ::testing::Not(HasSubstr("Deleted contents")));
  ExpectOutsideIntact();
}

TEST(DryRunTreeRemoverTest, TouchesNothingAndSaysWhatItWouldDelete) {
  testing::TempDir dir;
  std::ofstream(dir.path() + "/file") << "x";
  std::ostringstream out;
  Printer printer(out);
  DryRunTreeRemover remover(printer);
  EXPECT_THAT(remover.CleanDirectory(dir.path()), IsEmpty());
  EXPECT_THAT(remover.RemovePath(dir.path() + "/file"), IsEmpty());
  EXPECT_EQ(out.str(), "");
  EXPECT_THAT(remover.CleanDirectories({dir.path()}), IsEmpty());
  EXPECT_THAT(remover.RemoveFiles({dir.path() + "/file"}), IsEmpty());
  EXPECT_THAT(remover.CleanDirectoryOf("the etcd data directory", dir.path()), IsEmpty());
  EXPECT_TRUE(fs::exists(dir.path() + "/file"));
  EXPECT_EQ(out.str(),
            "[reset] Would delete contents of directories: [" + dir.path() + "]\n" +
                "[reset] Would delete files: [" + dir.path() + "/file]\n" +
                "[reset] Would delete contents of the etcd data directory: " + dir.path() + "\n");
}

}  // namespace
}  // namespace kkadm::util
