// cleanup-node on a TempDir rootfs with the real remover, a fake init system and a fake mounter:
// what is deleted, what is kept, what is reported, and that a second run is clean.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "app/phases/reset/cleanup_node_phase.h"
#include "app/util/mounter_real.h"
#include "tests/phases/reset/reset_fixture.h"

namespace kkadm::phases::reset {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

constexpr const char* kFiles =
    "[/etc/kubernetes/admin.conf /etc/kubernetes/super-admin.conf /etc/kubernetes/kubelet.conf "
    "/etc/kubernetes/bootstrap-kubelet.conf /etc/kubernetes/controller-manager.conf "
    "/etc/kubernetes/scheduler.conf]";

class CleanupNodeTest : public testing::ResetFixture {
 protected:
  void SetUp() override {
    for (const char* file :
         {"/etc/kubernetes/manifests/etcd.yaml", "/etc/kubernetes/manifests/kube-apiserver.yaml",
          "/etc/kubernetes/pki/ca.crt", "/etc/kubernetes/pki/etcd/ca.key",
          "/var/lib/kubelet/config.yaml", "/var/lib/kubelet/pki/kubelet-client-current.pem",
          "/var/lib/kubelet/pods/p1/volumes/v/data", "/etc/kubernetes/admin.conf",
          "/etc/kubernetes/super-admin.conf", "/etc/kubernetes/kubelet.conf",
          "/etc/kubernetes/controller-manager.conf", "/etc/kubernetes/scheduler.conf",
          "/etc/kubernetes/tmp/kubeadm-backup/x", "/etc/cni/net.d/10-flannel.conflist",
          "/etc/kubernetes/keep-me.txt", "/etc/systemd/system/kubelet.service"}) {
      Write(file, "content");
    }
  }
  void ExpectCleaned() {
    for (const char* dir :
         {"/etc/kubernetes/manifests", "/etc/kubernetes/pki", "/var/lib/kubelet"}) {
      EXPECT_TRUE(IsEmptyDir(dir)) << dir;
    }
    for (const std::string& file : FilesToDelete(data_)) EXPECT_FALSE(Exists(file)) << file;
    // Not kubeadm's to delete.
    EXPECT_TRUE(Exists("/etc/kubernetes/keep-me.txt"));
    EXPECT_TRUE(Exists("/etc/systemd/system/kubelet.service"));
  }
};

TEST_F(CleanupNodeTest, DeletesKubeadmsFilesAndKeepsTheDirectories) {
  util::RealMounter mounter(dir_.path(), printer_);  // nothing is mounted below the TempDir
  util::Host host = HostWith(mounter);
  data_.host = &host;
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  ExpectCleaned();
  EXPECT_TRUE(Exists("/etc/kubernetes/tmp/kubeadm-backup/x"));  // without cleanupTmpDir
  EXPECT_TRUE(Exists("/etc/cni/net.d/10-flannel.conflist"));    // without --cleanup-cni
  EXPECT_THAT(init_.calls, ElementsAre("Stop kubelet.service"));
  EXPECT_FALSE(init_.units["kubelet.service"].active);
  EXPECT_EQ(Output(),
            std::string("[reset] Stopping the kubelet service\n"
                        "[reset] Unmounting mounted directories in \"/var/lib/kubelet\"\n"
                        "[reset] Deleting contents of directories: [/etc/kubernetes/manifests "
                        "/var/lib/kubelet /etc/kubernetes/pki]\n"
                        "[reset] Deleting files: ") +
                kFiles + "\n");
  EXPECT_THAT(data_.left_behind, IsEmpty());
}

TEST_F(CleanupNodeTest, SecondRunIsClean) {
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  ExpectCleaned();
  EXPECT_THAT(data_.left_behind, IsEmpty());
}

TEST_F(CleanupNodeTest, TmpAndCniDirectoriesOnRequest) {
  data_.cfg.cleanup_tmp_dir = true;
  data_.cleanup_cni = true;
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_TRUE(IsEmptyDir("/etc/kubernetes/tmp"));
  EXPECT_TRUE(IsEmptyDir("/etc/cni/net.d"));
  EXPECT_THAT(
      Output(),
      HasSubstr("[reset] Deleting contents of directories: [/etc/kubernetes/manifests "
                "/var/lib/kubelet /etc/kubernetes/pki /etc/kubernetes/tmp /etc/cni/net.d]\n"));
}

TEST_F(CleanupNodeTest, UnmountsBelowTheKubeletDirectoryFirst) {
  mounter_.mounts = {"/var/lib/kubelet/pods/p1/volumes/v", "/var/lib/kubelet2/x",
                     "/var/lib/kubelet/pods/p1/volumes/v/inner"};
  data_.cfg.unmount_flags = {"MNT_FORCE"};
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_THAT(mounter_.unmounted, ElementsAre("/var/lib/kubelet/pods/p1/volumes/v/inner MNT_FORCE",
                                              "/var/lib/kubelet/pods/p1/volumes/v MNT_FORCE"));
  EXPECT_THAT(mounter_.mounts, ElementsAre("/var/lib/kubelet2/x"));
  ExpectCleaned();
}

TEST_F(CleanupNodeTest, AFailedUnmountKeepsTheKubeletDirectory) {
  mounter_.mounts = {"/var/lib/kubelet/pods/p1/volumes/v"};
  mounter_.fail["/var/lib/kubelet/pods/p1/volumes/v"] =
      FailedPrecondition("could not unmount: Device or resource busy");
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_TRUE(Exists("/var/lib/kubelet/pods/p1/volumes/v/data"));
  EXPECT_TRUE(IsEmptyDir("/etc/kubernetes/pki"));
  EXPECT_THAT(Output(),
              HasSubstr("[reset] Deleting contents of directories: [/etc/kubernetes/manifests "
                        "/etc/kubernetes/pki]\n"));
  ASSERT_THAT(data_.left_behind, SizeIs(2));
  EXPECT_EQ(data_.left_behind[0].what, "/var/lib/kubelet/pods/p1/volumes/v");
  EXPECT_THAT(data_.left_behind[0].reason, HasSubstr("Device or resource busy"));
  EXPECT_EQ(data_.left_behind[1].what, "/var/lib/kubelet");
}

TEST_F(CleanupNodeTest, UnlistableMountsKeepTheKubeletDirectory) {
  mounter_.list_error = FailedPrecondition("reading /proc/self/mountinfo: Permission denied");
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_TRUE(Exists("/var/lib/kubelet/config.yaml"));
  EXPECT_THAT(data_.left_behind, SizeIs(2));
}

TEST_F(CleanupNodeTest, KubeletThatCannotBeStoppedIsReported) {
  init_.unreachable = true;
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  ExpectCleaned();
  ASSERT_THAT(data_.left_behind, SizeIs(1));
  EXPECT_EQ(data_.left_behind[0].what, "kubelet.service");
  EXPECT_THAT(data_.left_behind[0].reason, HasSubstr("systemctl stop kubelet"));
}

TEST_F(CleanupNodeTest, NoKubeletUnitIsFine) {
  init_.units.clear();
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_THAT(data_.left_behind, IsEmpty());
}

TEST_F(CleanupNodeTest, EmptiesTheEtcdDataDirectoryAgainOnceTheKubeletIsStopped) {
  Write("/var/lib/etcd/member/wal/0000.wal", "written by an etcd that still ran");
  data_.etcd_data_dir = "/var/lib/etcd";
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_TRUE(IsEmptyDir("/var/lib/etcd"));
  EXPECT_THAT(data_.left_behind, IsEmpty());
}

TEST_F(CleanupNodeTest, NonDefaultCertificateDirectory) {
  Write("/srv/pki/ca.key", "key");
  data_.cert_dir = "/srv/pki";
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_TRUE(IsEmptyDir("/srv/pki"));
  EXPECT_TRUE(Exists("/etc/kubernetes/pki/ca.crt"));
}

TEST_F(CleanupNodeTest, SymlinksAreRemovedAsLinksAndLinkedDirectoriesReported) {
  Write("/outside/secret", "precious");
  Write("/outside/pki/ca.key", "precious key");
  std::filesystem::remove_all(Host("/etc/kubernetes/pki"));
  std::filesystem::create_directory_symlink(Host("/outside/pki"), Host("/etc/kubernetes/pki"));
  std::filesystem::remove(Host("/etc/kubernetes/admin.conf"));
  std::filesystem::create_symlink(Host("/outside/secret"), Host("/etc/kubernetes/admin.conf"));
  std::filesystem::create_symlink(Host("/outside/secret"), Host("/var/lib/kubelet/pods/p1/link"));
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_FALSE(Exists("/etc/kubernetes/admin.conf"));
  EXPECT_FALSE(Exists("/var/lib/kubelet/pods/p1/link"));
  EXPECT_TRUE(Exists("/outside/secret"));
  EXPECT_TRUE(Exists("/outside/pki/ca.key"));
  ASSERT_THAT(data_.left_behind, SizeIs(1));
  EXPECT_EQ(data_.left_behind[0].what, "/etc/kubernetes/pki");
  EXPECT_THAT(data_.left_behind[0].reason, HasSubstr("symbolic link"));
}

TEST_F(CleanupNodeTest, DryRunChangesNothing) {
  UseDryRun();
  mounter_.mounts = {"/var/lib/kubelet/pods/p1/volumes/v"};
  ASSERT_TRUE(RunCleanupNode(data_).ok());
  EXPECT_THAT(mounter_.unmounted, IsEmpty());
  EXPECT_THAT(init_.calls, IsEmpty());
  EXPECT_THAT(data_.left_behind, IsEmpty());
  EXPECT_EQ(Output(),
            std::string("[dryrun] Would stop the kubelet service\n"
                        "[reset] Would unmount mounted directories in \"/var/lib/kubelet\"\n"
                        "[dryrun] Would unmount \"/var/lib/kubelet/pods/p1/volumes/v\"\n"
                        "[reset] Would delete contents of directories: [/etc/kubernetes/manifests "
                        "/var/lib/kubelet /etc/kubernetes/pki]\n"
                        "[reset] Would delete files: ") +
                kFiles + "\n");
  EXPECT_THAT(Output(),
              HasSubstr("[dryrun] Would unmount \"/var/lib/kubelet/pods/p1/volumes/v\"\n"));
  EXPECT_TRUE(Exists("/etc/kubernetes/admin.conf"));
  EXPECT_TRUE(Exists("/var/lib/kubelet/config.yaml"));
  EXPECT_THAT(Output(),
              HasSubstr("[reset] Would unmount mounted directories in \"/var/lib/kubelet\"\n"));
  EXPECT_THAT(Output(),
              HasSubstr("[reset] Would delete contents of directories: [/etc/kubernetes/manifests "
                        "/var/lib/kubelet /etc/kubernetes/pki]\n"));
  EXPECT_THAT(Output(), HasSubstr(std::string("[reset] Would delete files: ") + kFiles + "\n"));
  EXPECT_THAT(Output(), ::testing::Not(HasSubstr("Stopping")));
}

}  // namespace
}  // namespace kkadm::phases::reset
