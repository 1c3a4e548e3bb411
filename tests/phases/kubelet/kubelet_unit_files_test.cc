// Tests for kubelet.service and the kkadm drop-in.
#include "app/phases/kubelet/kubelet_unit_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases {
namespace {

TEST(KubeletUnitFilesTest, DropInHasKubeadmLines) {
  std::string d = RenderKubeletDropIn({});
  for (const char* line :
       {"[Service]\n",
        "Environment=\"KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/"
        "bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf\"\n",
        "Environment=\"KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml\"\n",
        "EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\n",
        "EnvironmentFile=-/etc/sysconfig/kubelet\nEnvironmentFile=-/etc/default/kubelet\n",
        "ExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS "
        "$KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS\n"}) {
    EXPECT_NE(d.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << d;
  }
}

TEST(KubeletUnitFilesTest, BaseUnit) {
  std::string u = RenderKubeletBaseUnit("/usr/bin/kubelet");
  for (const char* line :
       {"Description=kubelet: The Kubernetes Node Agent\n", "Wants=network-online.target\n",
        "ExecStart=/usr/bin/kubelet\n", "Restart=always\n", "RestartSec=10\n", "[Install]\n",
        "WantedBy=multi-user.target\n"}) {
    EXPECT_NE(u.find(line), std::string::npos) << "missing: " << line;
  }
}

TEST(KubeletUnitFilesTest, WritesBaseUnitOnlyWithoutPackagedOne) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  auto written = WriteKubeletUnitFiles(fs, {});
  ASSERT_TRUE(written.has_value());
  EXPECT_EQ(written->managed, (std::vector<std::string>{std::string(kKubeletBaseUnitPath),
                                                        std::string(kKubeletDropInPath)}));
  EXPECT_EQ(fs.Stat(std::string(kKubeletBaseUnitPath))->mode, 0644u);
  EXPECT_EQ(fs.Stat(std::string(kKubeletDropInPath))->mode, 0644u);

  testing::TempDir packaged;
  util::RealFileSystem pfs(packaged.path());
  ASSERT_TRUE(pfs.WriteFile("/lib/systemd/system/kubelet.service", "[Service]\n", 0644).ok());
  written = WriteKubeletUnitFiles(pfs, {});
  ASSERT_TRUE(written.has_value());
  EXPECT_EQ(written->managed, std::vector<std::string>{std::string(kKubeletDropInPath)});
  EXPECT_FALSE(pfs.Exists(std::string(kKubeletBaseUnitPath)));
  EXPECT_TRUE(pfs.Exists(std::string(kKubeletDropInPath)));
}

TEST(KubeletUnitFilesTest, LeavesSomeoneElsesUnitInEtcAlone) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  std::string path(kKubeletBaseUnitPath);
  ASSERT_TRUE(fs.WriteFile(path, "[Service]\nExecStart=/opt/kubelet\n", 0644).ok());
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, {}).has_value());
  EXPECT_EQ(*fs.ReadFile(path), "[Service]\nExecStart=/opt/kubelet\n");
}

TEST(KubeletUnitFilesTest, RewritesItsOwnUnitAndIsByteStable) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  KubeletUnitPaths old_paths;
  old_paths.kubelet_binary = "/opt/old/kubelet";
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, old_paths).has_value());
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, {}).has_value());
  std::string unit = *fs.ReadFile(std::string(kKubeletBaseUnitPath));
  std::string drop_in = *fs.ReadFile(std::string(kKubeletDropInPath));
  EXPECT_EQ(unit, RenderKubeletBaseUnit("/usr/bin/kubelet"));
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, {}).has_value());
  EXPECT_EQ(*fs.ReadFile(std::string(kKubeletBaseUnitPath)), unit);
  EXPECT_EQ(*fs.ReadFile(std::string(kKubeletDropInPath)), drop_in);
}

// The inode of the file at node path `path`: WriteFile renames a new one into place.
ino_t InodeOf(const util::FileSystem& fs, std::string_view path) {
  struct stat st {};
  EXPECT_EQ(::stat(fs.HostPath(std::string(path)).c_str(), &st), 0) << path;
  return st.st_ino;
}

// Unchanged unit files keep their inode and mtime, so systemd sees nothing to reload.
TEST(KubeletUnitFilesTest, LeavesUpToDateFilesUntouched) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, {}).has_value());
  ino_t unit = InodeOf(fs, kKubeletBaseUnitPath);
  ino_t drop_in = InodeOf(fs, kKubeletDropInPath);
  auto managed = WriteKubeletUnitFiles(fs, {});
  ASSERT_TRUE(managed.has_value());
  // Up to date is still managed: the caller checks systemd loaded both.
  EXPECT_EQ(managed->managed, (std::vector<std::string>{std::string(kKubeletBaseUnitPath),
                                                        std::string(kKubeletDropInPath)}));
  EXPECT_EQ(InodeOf(fs, kKubeletBaseUnitPath), unit);
  EXPECT_EQ(InodeOf(fs, kKubeletDropInPath), drop_in);

  // Other bytes or another mode: rewritten.
  KubeletUnitPaths other;
  other.kubelet_dir = "/srv/kubelet";
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, other).has_value());
  EXPECT_NE(InodeOf(fs, kKubeletDropInPath), drop_in);
  EXPECT_EQ(InodeOf(fs, kKubeletBaseUnitPath), unit);
  ASSERT_EQ(::chmod(fs.HostPath(std::string(kKubeletBaseUnitPath)).c_str(), 0600), 0);
  ASSERT_TRUE(WriteKubeletUnitFiles(fs, other).has_value());
  EXPECT_NE(InodeOf(fs, kKubeletBaseUnitPath), unit);
  EXPECT_EQ(fs.Stat(std::string(kKubeletBaseUnitPath))->mode, 0644u);
}

constexpr const char* kPackagedDropIn = "/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf";
constexpr const char* kShadow = "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf";

// kubeadm's packaged drop-in sets ExecStart after kkadm's: a file of its name in /etc hides it,
// and is kept, byte for byte, on a re-run.
TEST(KubeletUnitFilesTest, HidesThePackagedKubeadmDropIn) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  ASSERT_TRUE(fs.WriteFile("/usr/lib/systemd/system/kubelet.service", "[Service]\n", 0644).ok());
  ASSERT_TRUE(
      fs.WriteFile(kPackagedDropIn, "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet\n", 0644)
          .ok());
  auto written = WriteKubeletUnitFiles(fs, {});
  ASSERT_TRUE(written.has_value()) << written.error().message();
  EXPECT_EQ(written->managed, (std::vector<std::string>{std::string(kKubeletDropInPath), kShadow}));
  ASSERT_EQ(written->hidden.size(), 1u);
  EXPECT_EQ(written->hidden[0].path, kPackagedDropIn);
  EXPECT_EQ(*fs.ReadFile(kShadow), RenderKubeletDropInShadow(written->hidden[0]));
  EXPECT_EQ(fs.Stat(kShadow)->mode, 0644u);
  ASSERT_TRUE(CheckKubeletDropIns(fs).ok());

  ino_t shadow = InodeOf(fs, kShadow);
  auto again = WriteKubeletUnitFiles(fs, {});
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->managed, written->managed);
  EXPECT_EQ(InodeOf(fs, kShadow), shadow);
}

// A drop-in kkadm cannot hide: refused before any unit file is written.
TEST(KubeletUnitFilesTest, RefusesBeforeWritingAnything) {
  testing::TempDir tmp;
  util::RealFileSystem fs(tmp.path());
  ASSERT_TRUE(fs.WriteFile(kPackagedDropIn, "[Service]\nExecStart=/usr/bin/kubelet\n", 0644).ok());
  const std::string mine = "/etc/systemd/system/kubelet.service.d/20-mine.conf";
  ASSERT_TRUE(fs.WriteFile(mine, "[Service]\nExecStart=\nExecStart=/opt/kubelet\n", 0644).ok());
  auto written = WriteKubeletUnitFiles(fs, {});
  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(written.error().message().find(mine), std::string::npos);
  for (std::string_view path :
       {kKubeletBaseUnitPath, kKubeletDropInPath, std::string_view(kShadow)}) {
    EXPECT_FALSE(fs.Exists(std::string(path))) << path;
  }
}

}  // namespace
}  // namespace kkadm::phases
