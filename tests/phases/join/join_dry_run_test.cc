// A control-plane join as a dry run, through the seams `kkadm join --dry-run` gets: every phase
// after discovery says exactly what it would do (golden output), and nothing reaches the node,
// etcd or the API server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/etcd/etcd_join.h"
#include "app/phases/join/control_plane_join_phase.h"
#include "app/phases/join/control_plane_prepare_phase.h"
#include "app/phases/join/wait_control_plane_phase.h"
#include "app/phases/kubelet/kubelet_bootstrap.h"
#include "app/phases/uploadcerts/upload_certs.h"
#include "app/phases/waitcontrolplane/waiter.h"
#include "app/util/file_system_dry_run.h"
#include "app/util/init_system_dry_run.h"
#include "app/util/kube_client_dry_run.h"
#include "tests/fakes/fake_host.h"
#include "tests/phases/golden.h"
#include "tests/phases/join/join_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::IsEmpty;

class JoinDryRunTest : public kkadm::testing::JoinPhasesTest {
 protected:
  JoinDryRunTest() {
    MakeControlPlane();
    data_.dry_run = true;
    data_.host = &dry_host_;
    access_.admin = &dry_api_;
    data_.waiter = &dry_waiter_;
    data_.kubelet_bootstrap = &dry_kubelet_bootstrap_;
    data_.etcd = &dry_etcd_;
  }

  kkadm::testing::TempDir dry_dir_;
  util::DryRunFileSystem dry_fs_{fs_, dry_dir_.path(), printer_, {"/etc/kubernetes/manifests"}};
  util::DryRunInitSystem dry_init_{printer_, &init_};
  util::DryRunKubeClient dry_api_{printer_};
  kkadm::testing::FakeHostSeams dry_host_seams_;
  util::Host dry_host_{dry_host_seams_.Over(dry_fs_, dry_init_, clock_, machine_)};
  DryRunWaiter dry_waiter_{printer_};
  DryRunKubeletBootstrapWaiter dry_kubelet_bootstrap_{printer_};
  DryRunEtcdJoiner dry_etcd_{printer_};
};

TEST_F(JoinDryRunTest, ControlPlaneJoinSaysWhatItWouldDo) {
  for (auto* run : {&RunPrepareControlPlane, &RunCheckEtcd, &RunJoinKubeletStart, &RunJoinEtcd,
                    &RunJoinMarkControlPlane, &RunJoinWaitControlPlane}) {
    Status s = run(data_);
    ASSERT_TRUE(s.ok()) << s.message() << "\n" << out_.str();
  }
  kkadm::testing::ExpectGolden("join-control-plane-dry-run.txt", out_.str());
  EXPECT_TRUE(etcd_.seen().empty());
  EXPECT_TRUE(init_.calls.empty());
  EXPECT_THAT(healthz_urls_, IsEmpty());
  EXPECT_TRUE(admin_api_.calls().empty());
  EXPECT_TRUE(node_api_.calls().empty());
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/manifests"));
  EXPECT_FALSE(fs_.Exists("/var/lib/etcd"));
  EXPECT_FALSE(fs_.Exists("/var/lib/kubelet/config.yaml"));
}

}  // namespace
}  // namespace kkadm::phases
