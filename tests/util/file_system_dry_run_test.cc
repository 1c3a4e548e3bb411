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
  EXPECT_EQ(fs.HostPath("/etc/kubernetes/admin.conf"), scratch.path() + "/etc/kubernetes/admin.conf");
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

}  // namespace
}  // namespace kkadm::util
