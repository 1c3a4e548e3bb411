#include "app/phases/controlplane/args.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "app/phases/controlplane/volumes.h"
#include "app/util/file_system_real.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/controlplane/pod_fixture.h"

namespace kkadm::phases {
namespace {

using kkadm::testing::Has;

TEST(ControlPlaneArgsTest, APIServerFollowsLocalEtcdAdvertiseClientURLs) {
  kkadm::testing::TempDir root;
  util::RealFileSystem fs(root.path());
  config::InitConfiguration cfg = kkadm::testing::DefaultInitConfig();
  cfg.cluster.etcd.local->extra_args = {{"advertise-client-urls", "https://10.1.1.1:2379"}};
  EXPECT_TRUE(Has(APIServerCommand(kkadm::testing::InputFor(cfg, fs)),
                  "--etcd-servers=https://10.1.1.1:2379"));
}

TEST(AuthorizationModesTest, KnownModesKeptInOrder) {
  EXPECT_EQ(AuthorizationModes(""), "Node,RBAC");
  EXPECT_EQ(AuthorizationModes("Bogus"), "Node,RBAC");
  EXPECT_EQ(AuthorizationModes("RBAC,Bogus,Webhook"), "RBAC,Webhook");
  EXPECT_EQ(AuthorizationModes("AlwaysAllow"), "AlwaysAllow");
}

TEST(ControlPlaneVolumesTest, ExternalEtcdCertDirsSkipCoveredAndFoldNested) {
  config::ExternalEtcd etcd{.endpoints = {},
                            .ca_file = "/etc/etcd/ca.crt",
                            .cert_file = "/etc/etcd/client/c.crt",
                            .key_file = "/etc/kubernetes/pki/etcd-client.key"};
  EXPECT_EQ(ExternalEtcdCertDirs(etcd, "/etc/kubernetes/pki"),
            (std::vector<std::string>{"/etc/etcd"}));
  etcd = {.endpoints = {},
          .ca_file = "/etc/ssl/certs/ca.pem",
          .cert_file = "c.crt",
          .key_file = "/b/k.key"};
  EXPECT_EQ(ExternalEtcdCertDirs(etcd, "/etc/kubernetes/pki"), (std::vector<std::string>{"/b"}));
}

TEST(ControlPlaneVolumesTest, CACertDirsOnlyWhenPresentOnTheNode) {
  kkadm::testing::TempDir root;
  util::RealFileSystem fs(root.path());
  config::InitConfiguration cfg = kkadm::testing::DefaultInitConfig();
  ASSERT_TRUE(fs.MakeDirs("/etc/pki/ca-trust", 0755).ok());
  auto volumes = ControlPlaneVolumes(kKubeControllerManager, kkadm::testing::InputFor(cfg, fs));
  ASSERT_TRUE(volumes.has_value());
  EXPECT_TRUE(volumes->contains("etc-pki-ca-trust"));
  EXPECT_FALSE(volumes->contains("etc-pki-tls-certs"));
  EXPECT_EQ(volumes->at("flexvolume-dir").read_only, false);
  auto scheduler = ControlPlaneVolumes(kKubeScheduler, kkadm::testing::InputFor(cfg, fs));
  ASSERT_TRUE(scheduler.has_value());
  EXPECT_EQ(scheduler->size(), 1u);  // only its kubeconfig
}

}  // namespace
}  // namespace kkadm::phases
