#include "app/phases/init/etcd_phase.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "app/phases/init/control_plane_phase.h"
#include "app/util/file_system_dry_run.h"
#include "tests/fakes/fake_host.h"
#include "tests/phases/init_phase_fixture.h"

namespace kkadm::phases {
namespace {

using kkadm::testing::InitPhasesTest;

TEST_F(InitPhasesTest, EtcdLocalCreatesDataDirAndManifest) {
  workflow::Phase phase = NewEtcdPhase(data_);
  ASSERT_EQ(phase.name, "etcd");
  ASSERT_EQ(phase.children.size(), 1u);
  EXPECT_EQ(phase.children[0].name, "local");
  ASSERT_TRUE(RunTree(phase).ok());
  EXPECT_EQ(
      out_.str(),
      "[etcd] Creating static Pod manifest for local etcd in \"/etc/kubernetes/manifests\"\n");
  EXPECT_EQ(fs_.Stat("/var/lib/etcd")->mode, 0700u);
  EXPECT_EQ(fs_.Stat("/etc/kubernetes/manifests/etcd.yaml")->mode, 0600u);
}

// As kubeadm's os.MkdirAll: a directory that exists keeps its mode (issue 19: `dataDir: /`
// once made the root directory 0700).
TEST_F(InitPhasesTest, EtcdExistingDataDirKeepsItsMode) {
  ASSERT_TRUE(fs_.MakeDirs("/var/lib/etcd", 0755).ok());
  ASSERT_TRUE(RunTree(NewEtcdPhase(data_)).ok());
  EXPECT_EQ(fs_.Stat("/var/lib/etcd")->mode, 0755u);
}

TEST_F(InitPhasesTest, EtcdExternalWritesNothing) {
  data_.cfg.cluster.etcd.local.reset();
  data_.cfg.cluster.etcd.external = config::ExternalEtcd{
      .endpoints = {"https://10.0.0.1:2379"}, .ca_file = "", .cert_file = "", .key_file = ""};
  ASSERT_TRUE(RunTree(NewEtcdPhase(data_)).ok());
  EXPECT_EQ(out_.str(), "");
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/manifests"));
  EXPECT_FALSE(fs_.Exists("/var/lib/etcd"));
}

// Through the dry run's FileSystem, as `kkadm init phase etcd local --dry-run` has it.
TEST_F(InitPhasesTest, EtcdDryRunPrintsTheManifest) {
  kkadm::testing::TempDir dry_dir;
  util::DryRunFileSystem dry_fs(fs_, dry_dir.path(), printer_, {"/etc/kubernetes/manifests"});
  kkadm::testing::FakeHostSeams dry_host_seams_;
  util::Host dry_host{dry_host_seams_.Over(dry_fs, init_, clock_, machine_)};
  data_.host = &dry_host;
  ASSERT_TRUE(RunTree(NewEtcdPhase(data_)).ok());
  const std::string out = out_.str();
  EXPECT_EQ(out.rfind("[etcd] Would ensure that \"/var/lib/etcd\" directory is present\n"
                      "[etcd] Creating static Pod manifest for local etcd in "
                      "\"/etc/kubernetes/manifests\"\n"
                      "[dryrun] Would create directory \"/etc/kubernetes/manifests\" (mode 0700)\n"
                      "[dryrun] Would write file \"/etc/kubernetes/manifests/etcd.yaml\" (mode "
                      "0600)\n"
                      "[dryrun] Would write file \"/etc/kubernetes/manifests/etcd.yaml\" with "
                      "content:\n\tapiVersion: v1\n",
                      0),
            0u)
      << out;
  EXPECT_NE(out.find("\t    - --name=cp-1\n"), std::string::npos);
  EXPECT_FALSE(fs_.Exists("/var/lib/etcd"));
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/manifests"));
}

TEST_F(InitPhasesTest, PhasesInheritOnlyKubeadmFlags) {
  auto etcd = NewEtcdPhase(data_);
  EXPECT_EQ(
      etcd.children[0].inherit_flags,
      (std::vector<std::string>{"cert-dir", "config", "image-repository", "patches", "dry-run"}));
  auto cp = NewControlPlanePhase(data_);
  const auto& api = cp.children[0].inherit_flags;
  EXPECT_NE(std::find(api.begin(), api.end(), "apiserver-advertise-address"), api.end());
  const auto& kcm = cp.children[1].inherit_flags;
  EXPECT_NE(std::find(kcm.begin(), kcm.end(), "pod-network-cidr"), kcm.end());
}

}  // namespace
}  // namespace kkadm::phases
