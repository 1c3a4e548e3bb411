// Tests for reading kubelet.service's drop-ins as systemd merges them, and the decision between
// hiding a drop-in that overrides kkadm's and refusing.
#include "app/phases/kubelet/kubelet_drop_ins.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases {
namespace {

// kubeadm's packaged drop-in, as the kubeadm deb and rpm packages install it.
constexpr const char* kKubeadmDropIn =
    "# Note: This dropin only works with kubeadm and kubelet v1.11+\n"
    "[Service]\n"
    "Environment=\"KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/"
    "bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf\"\n"
    "Environment=\"KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml\"\n"
    "EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n"
    "EnvironmentFile=-/etc/sysconfig/kubelet\n"
    "ExecStart=\n"
    "ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS "
    "$KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS\n";

constexpr const char* kUsrLibKubeadm = "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf";
constexpr const char* kEtcKubeadm = "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf";

TEST(KubeletDropInsTest, ConflictingSettings) {
  EXPECT_EQ(ConflictingSetting(kKubeadmDropIn), "ExecStart");
  EXPECT_EQ(ConflictingSetting("[Service]\nExecStart=\n"), "ExecStart");
  EXPECT_EQ(ConflictingSetting("[Service]\n  ExecStart = /opt/kubelet \\\n  --v=2\n"), "ExecStart");
  EXPECT_EQ(
      ConflictingSetting("[Service]\nEnvironment=\"A=1\" 'KUBELET_CONFIG_ARGS=--config=/x'\n"),
      "KUBELET_CONFIG_ARGS");
  EXPECT_EQ(ConflictingSetting("[Service]\nEnvironment=KUBELET_KUBEADM_ARGS=--v=4\n"),
            "KUBELET_KUBEADM_ARGS");
  EXPECT_EQ(ConflictingSetting("[Service]\nEnvironment=\n"), "an empty Environment=");
  EXPECT_EQ(ConflictingSetting("[Service]\nEnvironmentFile=\n"), "an empty EnvironmentFile=");
  // Another section, a comment, a continued comment line, someone else's variables, the user's
  // own KUBELET_EXTRA_ARGS, other settings: nothing kkadm's drop-in sets.
  for (const char* text :
       {"[Unit]\nExecStart=/opt/kubelet\n", "[Service]\n# ExecStart=/opt/kubelet\n",
        "[Service]\n; ExecStart=/opt/kubelet\n",
        "[Service]\nEnvironment=\"HTTP_PROXY=http://proxy:3128\" \"XKUBELET_CONFIG_ARGS=1\"\n",
        "[Service]\nEnvironment=\"KUBELET_EXTRA_ARGS=--v=2\"\nEnvironmentFile=-/etc/kubelet.env\n",
        "[Service]\nLimitNOFILE=1048576\nExecStartPre=/bin/true\nCPUAccounting=yes\n", ""}) {
    EXPECT_EQ(ConflictingSetting(text), "") << text;
  }
}

class KubeletDropInsNodeTest : public ::testing::Test {
 protected:
  KubeletDropInsNodeTest() : fs_(tmp_.path()) {}

  void Write(const std::string& path, const std::string& text) {
    ASSERT_TRUE(fs_.WriteFile(path, text, 0644).ok()) << path;
  }
  std::vector<KubeletDropInConflict> Conflicts() {
    auto found = FindKubeletDropInConflicts(fs_);
    EXPECT_TRUE(found.has_value()) << found.error().message();
    return found.value_or(std::vector<KubeletDropInConflict>{});
  }

  testing::TempDir tmp_;
  util::RealFileSystem fs_;
};

TEST_F(KubeletDropInsNodeTest, NoDropInsNoConflict) {
  EXPECT_TRUE(Conflicts().empty());
  EXPECT_TRUE(CheckKubeletDropIns(fs_).ok());
}

// kubeadm's packages put 10-kubeadm.conf where /etc/systemd/system takes precedence, and it sorts
// after 10-kkadm.conf ('k' < 'u'): kkadm hides it.
TEST_F(KubeletDropInsNodeTest, PackagedKubeadmDropInIsHideable) {
  for (const char* dir : {"/usr/lib/systemd/system", "/lib/systemd/system",
                          "/usr/local/lib/systemd/system", "/run/systemd/system"}) {
    testing::TempDir tmp;
    util::RealFileSystem fs(tmp.path());
    std::string path = std::string(dir) + "/kubelet.service.d/10-kubeadm.conf";
    ASSERT_TRUE(fs.WriteFile(path, kKubeadmDropIn, 0644).ok());
    auto found = FindKubeletDropInConflicts(fs);
    ASSERT_TRUE(found.has_value());
    ASSERT_EQ(found->size(), 1u) << dir;
    EXPECT_EQ((*found)[0].path, path);
    EXPECT_EQ((*found)[0].setting, "ExecStart");
    EXPECT_TRUE((*found)[0].hideable) << dir;
    EXPECT_TRUE(CheckKubeletDropIns(fs).ok()) << dir;
  }
}

TEST_F(KubeletDropInsNodeTest, DropInInEtcIsRefusedNamingIt) {
  Write("/etc/systemd/system/kubelet.service.d/20-mine.conf",
        "[Service]\nExecStart=\nExecStart=/opt/kubelet --v=4\n");
  auto conflicts = Conflicts();
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_FALSE(conflicts[0].hideable);
  Status s = CheckKubeletDropIns(fs_);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            "kubelet drop-in \"/etc/systemd/system/kubelet.service.d/20-mine.conf\" sets ExecStart "
            "after kkadm's \"/etc/systemd/system/kubelet.service.d/10-kkadm.conf\", so systemd "
            "would not run the kubelet kkadm configures; remove it (flags of your own go in "
            "KUBELET_EXTRA_ARGS in /etc/default/kubelet) and run kkadm again");
}

// An older kubeadm package's /etc/systemd/system/kubelet.service.d/10-kubeadm.conf is a file
// kkadm cannot hide; so is one in a directory above /etc/systemd/system.
TEST_F(KubeletDropInsNodeTest, RefusesWhatItCannotHide) {
  Write(kEtcKubeadm, kKubeadmDropIn);
  EXPECT_NE(CheckKubeletDropIns(fs_).message().find(kEtcKubeadm), std::string::npos);

  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  ASSERT_TRUE(fs.WriteFile("/run/systemd/transient/kubelet.service.d/50-x.conf",
                           "[Service]\nEnvironment=KUBELET_CONFIG_ARGS=--config=/x\n", 0644)
                  .ok());
  Status s = CheckKubeletDropIns(fs);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("\"/run/systemd/transient/kubelet.service.d/50-x.conf\" sets "
                             "KUBELET_CONFIG_ARGS after kkadm's"),
            std::string::npos)
      << s.message();
}

// Names sorting before 10-kkadm.conf are applied first, and kkadm's "ExecStart=" clears theirs.
TEST_F(KubeletDropInsNodeTest, EarlierNamesDoNotConflict) {
  Write("/etc/systemd/system/kubelet.service.d/05-mine.conf",
        "[Service]\nExecStart=/opt/kubelet\n");
  Write("/etc/systemd/system/kubelet.service.d/10-kkadm.conf", "[Service]\nExecStart=\n");
  Write("/etc/systemd/system/kubelet.service.d/10-aaa.conf", "[Service]\nExecStart=/opt/kubelet\n");
  EXPECT_TRUE(Conflicts().empty());
}

// systemd reads, of each name, the file in the directory of highest precedence only.
TEST_F(KubeletDropInsNodeTest, TheFileSystemdReadsDecides) {
  Write(kUsrLibKubeadm, kKubeadmDropIn);
  Write(kEtcKubeadm, "[Service]\nEnvironment=HTTP_PROXY=http://proxy:3128\n");
  EXPECT_TRUE(Conflicts().empty());
  // Masked with a symlink to /dev/null: systemd reads nothing of that name.
  ASSERT_EQ(::unlink(fs_.HostPath(kEtcKubeadm).c_str()), 0);
  ASSERT_EQ(::symlink("/dev/null", fs_.HostPath(kEtcKubeadm).c_str()), 0);
  EXPECT_TRUE(Conflicts().empty());
}

// Hidden files, other suffixes and directories are not drop-ins.
TEST_F(KubeletDropInsNodeTest, OnlyConfFilesAreDropIns) {
  const std::string dir = "/etc/systemd/system/kubelet.service.d/";
  Write(dir + ".20-x.conf", "[Service]\nExecStart=/opt/kubelet\n");
  Write(dir + "20-x.conf.bak", "[Service]\nExecStart=/opt/kubelet\n");
  Write(dir + "20-y.conf/z.conf", "[Service]\nExecStart=/opt/kubelet\n");
  EXPECT_TRUE(Conflicts().empty());
}

// The top-level service.d applies to every service, below any kubelet.service.d.
TEST_F(KubeletDropInsNodeTest, TopLevelServiceDropInIsHideable) {
  Write("/etc/systemd/system/service.d/50-all.conf", "[Service]\nExecStart=/bin/true\n");
  auto conflicts = Conflicts();
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_EQ(conflicts[0].path, "/etc/systemd/system/service.d/50-all.conf");
  EXPECT_TRUE(conflicts[0].hideable);
}

// A 10-kkadm.conf above /etc/systemd/system is read instead of kkadm's.
TEST_F(KubeletDropInsNodeTest, RefusesAFileInPlaceOfKkadms) {
  Write("/etc/systemd/system/kubelet.service.d/10-kkadm.conf", "[Service]\n");
  Write("/usr/lib/systemd/system/kubelet.service.d/10-kkadm.conf", "[Service]\n");
  EXPECT_TRUE(Conflicts().empty());
  Write("/run/systemd/system.control/kubelet.service.d/10-kkadm.conf", "[Service]\n");
  EXPECT_EQ(CheckKubeletDropIns(fs_).message(),
            "kubelet drop-in \"/run/systemd/system.control/kubelet.service.d/10-kkadm.conf\" "
            "takes the place of kkadm's \"/etc/systemd/system/kubelet.service.d/10-kkadm.conf\", "
            "so systemd would not run the kubelet kkadm configures; remove it and run kkadm again");
}

// kkadm's shadow is looked through: the conflict it hides is still found, so a re-run keeps it.
TEST_F(KubeletDropInsNodeTest, LooksThroughItsOwnShadow) {
  Write(kUsrLibKubeadm, kKubeadmDropIn);
  auto conflicts = Conflicts();
  ASSERT_EQ(conflicts.size(), 1u);
  std::string shadow = RenderKubeletDropInShadow(conflicts[0]);
  EXPECT_EQ(ConflictingSetting(shadow), "");
  EXPECT_NE(shadow.find(kUsrLibKubeadm), std::string::npos) << shadow;
  Write(kEtcKubeadm, shadow);
  conflicts = Conflicts();
  ASSERT_EQ(conflicts.size(), 1u);
  EXPECT_EQ(conflicts[0].path, kUsrLibKubeadm);
  EXPECT_TRUE(conflicts[0].hideable);
  // With the packaged file gone, nothing is left to hide.
  ASSERT_TRUE(fs_.Remove(kUsrLibKubeadm).ok());
  EXPECT_TRUE(Conflicts().empty());
}

}  // namespace
}  // namespace kkadm::phases
