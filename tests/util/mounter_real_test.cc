// The mount table parsing, the selection of mounts below a directory, the umount2 flags, and the
// dry-run mounter. (Real unmounting is in tests/e2e/reset_safety_test.sh, inside `unshare -m`.)
#include "app/util/mounter_real.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <sstream>

#include "tests/fakes/fake_mounter.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kMountInfo =
    "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
    "30 22 0:25 / /var/lib/kubelet rw shared:9 - ext4 /dev/sdb1 rw\n"
    "31 30 0:26 / /var/lib/kubelet/pods/a/volumes/kubernetes.io~secret/token rw - tmpfs tmpfs rw\n"
    "32 22 0:27 / /var/lib/kubelet2/pods/x rw - tmpfs tmpfs rw\n"
    "33 30 0:28 / /var/lib/kubelet/pods/with\\040space rw - tmpfs tmpfs rw\n"
    "34 31 0:29 / /var/lib/kubelet/pods/a/volumes/kubernetes.io~secret/token rw - tmpfs tmpfs rw\n"
    "garbage\n";

TEST(ParseMountInfoTest, MountPointsInOrderWithEscapesDecoded) {
  EXPECT_THAT(ParseMountInfo(kMountInfo),
              ElementsAre("/", "/var/lib/kubelet",
                          "/var/lib/kubelet/pods/a/volumes/kubernetes.io~secret/token",
                          "/var/lib/kubelet2/pods/x", "/var/lib/kubelet/pods/with space",
                          "/var/lib/kubelet/pods/a/volumes/kubernetes.io~secret/token"));
}

TEST(MountPointsBelowTest, StrictlyBelowNewestFirst) {
  // The directory's own mount and a sibling sharing its prefix are not below it; the stacked
  // mount appears twice, newest first.
  EXPECT_THAT(MountPointsBelow(ParseMountInfo(kMountInfo), "/var/lib/kubelet/"),
              ElementsAre("/var/lib/kubelet/pods/a/volumes/kubernetes.io~secret/token",
                          "/var/lib/kubelet/pods/with space",
                          "/var/lib/kubelet/pods/a/volumes/kubernetes.io~secret/token"));
  EXPECT_THAT(MountPointsBelow(ParseMountInfo(kMountInfo), "/srv"), IsEmpty());
}

TEST(UnmountFlagsForTest, DetachAndNoFollowAlwaysExpireAlone) {
  EXPECT_EQ(*UnmountFlagsFor({}), MNT_DETACH | UMOUNT_NOFOLLOW);
  EXPECT_EQ(*UnmountFlagsFor({"MNT_FORCE"}), MNT_DETACH | UMOUNT_NOFOLLOW | MNT_FORCE);
  EXPECT_EQ(*UnmountFlagsFor({"MNT_DETACH", "UMOUNT_NOFOLLOW"}), MNT_DETACH | UMOUNT_NOFOLLOW);
  EXPECT_EQ(*UnmountFlagsFor({"MNT_EXPIRE", "MNT_FORCE"}), MNT_EXPIRE | UMOUNT_NOFOLLOW);
  auto bad = UnmountFlagsFor({"MNT_LAZY"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.error().message().find("MNT_LAZY"), std::string::npos);
}

TEST(RealMounterTest, NothingIsMountedBelowAFreshDirectory) {
  testing::TempDir dir;
  std::ostringstream out;
  Printer printer(out);
  RealMounter mounter(dir.path(), printer);
  auto mounts = mounter.MountPointsUnder("/var/lib/kubelet");
  ASSERT_TRUE(mounts) << mounts.error().message();
  EXPECT_THAT(*mounts, IsEmpty());
  EXPECT_EQ(out.str(), "");
  auto errors = mounter.UnmountAllUnder("/var/lib/kubelet", {});
  ASSERT_TRUE(errors) << errors.error().message();
  EXPECT_THAT(*errors, IsEmpty());
  EXPECT_EQ(out.str(), "[reset] Unmounting mounted directories in \"/var/lib/kubelet\"\n");
}

TEST(DryRunMounterTest, ListsFromTheRealOneUnmountsNothing) {
  testing::FakeMounter real;
  real.mounts = {"/var/lib/kubelet/pods/a"};
  std::ostringstream out;
  Printer printer(out);
  DryRunMounter mounter(real, printer);
  auto mounts = mounter.MountPointsUnder("/var/lib/kubelet");
  ASSERT_TRUE(mounts);
  EXPECT_THAT(*mounts, ElementsAre("/var/lib/kubelet/pods/a"));
  EXPECT_TRUE(mounter.Unmount("/var/lib/kubelet/pods/a", {}).ok());
  EXPECT_THAT(real.unmounted, IsEmpty());
  EXPECT_EQ(out.str(), "[dryrun] Would unmount \"/var/lib/kubelet/pods/a\"\n");
  EXPECT_FALSE(mounter.Unmount("/x", {"MNT_BOGUS"}).ok());
  // What it would have unmounted is gone from its list, as after a real unmount.
  mounts = mounter.MountPointsUnder("/var/lib/kubelet");
  ASSERT_TRUE(mounts);
  EXPECT_THAT(*mounts, IsEmpty());
  EXPECT_THAT(real.mounts, ElementsAre("/var/lib/kubelet/pods/a"));
}

TEST(DryRunMounterTest, UnmountAllUnderSaysWhatItWouldUnmount) {
  testing::FakeMounter real;
  real.mounts = {"/var/lib/kubelet/pods/a", "/var/lib/kubelet2/b", "/var/lib/kubelet/pods/a/c"};
  std::ostringstream out;
  Printer printer(out);
  DryRunMounter mounter(real, printer);
  auto errors = mounter.UnmountAllUnder("/var/lib/kubelet", {"MNT_FORCE"});
  ASSERT_TRUE(errors);
  EXPECT_THAT(*errors, IsEmpty());
  EXPECT_EQ(out.str(),
            "[reset] Would unmount mounted directories in \"/var/lib/kubelet\"\n"
            "[dryrun] Would unmount \"/var/lib/kubelet/pods/a/c\"\n"
            "[dryrun] Would unmount \"/var/lib/kubelet/pods/a\"\n");
  EXPECT_THAT(real.unmounted, IsEmpty());
  EXPECT_THAT(*mounter.MountPointsUnder("/var/lib/kubelet"), IsEmpty());
}

}  // namespace
}  // namespace kkadm::util
