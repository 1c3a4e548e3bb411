#include "app/util/file_system_dry_run.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

TEST(DryRunFileSystemTest, WritesGoToOverlayAndNodeIsUntouched) {
  testing::TempDir node, scratch;
  RealFileSystem base(node.path());
  ASSERT_TRUE(base.WriteFile("/etc/kubernetes/pki/ca.crt", "old", 0644).ok());
  std::ostringstream out;
  Printer printer(out);
  DryRunFileSystem fs(base, scratch.path(), printer);

  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/pki/ca.crt", "new", 0644).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/admin.conf", "cfg", 0600).ok());
  EXPECT_EQ(*fs.ReadFile("/etc/kubernetes/pki/ca.crt"), "new");
  EXPECT_EQ(*base.ReadFile("/etc/kubernetes/pki/ca.crt"), "old");
  EXPECT_FALSE(base.Exists("/etc/kubernetes/admin.conf"));
  EXPECT_EQ(fs.HostPath("/etc/kubernetes/admin.conf"),
            scratch.path() + "/etc/kubernetes/admin.conf");
  EXPECT_NE(out.str().find("[dryrun] Would write file \"/etc/kubernetes/admin.conf\" (mode 0600)"),
            std::string::npos);
  auto names = fs.ListDir("/etc/kubernetes");
  ASSERT_TRUE(names.has_value());
  EXPECT_EQ(*names, (std::vector<std::string>{"admin.conf", "pki"}));
}

TEST(DryRunFileSystemTest, RemoveHidesFileButKeepsIt) {
  testing::TempDir node, scratch;
  RealFileSystem base(node.path());
  ASSERT_TRUE(base.WriteFile("/etc/kubernetes/kubelet.conf", "x", 0600).ok());
  std::ostringstream out;
  Printer printer(out);
  DryRunFileSystem fs(base, scratch.path(), printer);
  ASSERT_TRUE(fs.Remove("/etc/kubernetes/kubelet.conf").ok());
  EXPECT_FALSE(fs.Exists("/etc/kubernetes/kubelet.conf"));
  EXPECT_TRUE(base.Exists("/etc/kubernetes/kubelet.conf"));
  EXPECT_NE(out.str().find("Would remove"), std::string::npos);
}

TEST(DryRunFileSystemTest, ShowsFilesOfTheShownDirectoriesIndentedByTabs) {
  testing::TempDir node, scratch;
  RealFileSystem base(node.path());
  std::ostringstream out;
  Printer printer(out);
  DryRunFileSystem fs(base, scratch.path(), printer, {"/etc/kubernetes/manifests"});
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/manifests/etcd.yaml", "a: 1\nb: 2\n", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/admin.conf", "secret", 0600).ok());
  ASSERT_TRUE(fs.WriteFile("/etc/kubernetes/manifests/sub/x.yaml", "c: 3\n", 0600).ok());
  EXPECT_EQ(out.str(),
            "[dryrun] Would write file \"/etc/kubernetes/manifests/etcd.yaml\" (mode 0600)\n"
            "[dryrun] Would write file \"/etc/kubernetes/manifests/etcd.yaml\" with content:\n"
            "\ta: 1\n\tb: 2\n"
            "[dryrun] Would write file \"/etc/kubernetes/admin.conf\" (mode 0600)\n"
            "[dryrun] Would write file \"/etc/kubernetes/manifests/sub/x.yaml\" (mode 0600)\n");
  EXPECT_EQ(*fs.ReadFile("/etc/kubernetes/manifests/etcd.yaml"), "a: 1\nb: 2\n");
  EXPECT_FALSE(base.Exists("/etc/kubernetes/manifests"));
}

TEST(DryRunFileSystemTest, EnsureDirectorySaysSoInKubeadmsWordsAndMakesNothing) {
  testing::TempDir node, scratch;
  RealFileSystem base(node.path());
  std::ostringstream out;
  Printer printer(out);
  DryRunFileSystem fs(base, scratch.path(), printer);
  ASSERT_TRUE(fs.EnsureDirectory("/var/lib/etcd", 0700, "etcd").ok());
  EXPECT_EQ(out.str(), "[etcd] Would ensure that \"/var/lib/etcd\" directory is present\n");
  EXPECT_FALSE(fs.Exists("/var/lib/etcd"));
  EXPECT_FALSE(base.Exists("/var/lib/etcd"));
}

// kubeadm's CreateDataDirectory (os.MkdirAll(dir, 0700)): a new directory is private, an
// existing one keeps its mode.
TEST(RealFileSystemTest, EnsureDirectoryMakesANewOnePrivate) {
  testing::TempDir node;
  RealFileSystem fs(node.path());
  ASSERT_TRUE(fs.EnsureDirectory("/var/lib/etcd", 0700, "etcd").ok());
  EXPECT_EQ(fs.Stat("/var/lib/etcd")->mode, 0700u);
  ASSERT_TRUE(fs.MakeDirs("/var/lib/other", 0755).ok());
  ASSERT_TRUE(fs.EnsureDirectory("/var/lib/other", 0700, "etcd").ok());
  EXPECT_EQ(fs.Stat("/var/lib/other")->mode, 0755u);
}

}  // namespace
}  // namespace kkadm::util
