// kubelet-start of a joining node: the bootstrap credential on disk only while needed, the
// kubelet's files, systemd calls, the waits on a fake clock, the CRI socket annotation.
#include "app/phases/kubelet/kubelet_bootstrap.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/phases/join/join_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// kubeadm's kubelet.conf after the TLS bootstrap: the kubelet's rotated client certificate.
constexpr const char* kKubeletConf = R"(apiVersion: v1
kind: Config
clusters:
- name: default-cluster
  cluster:
    server: https://10.0.0.1:6443
    certificate-authority-data: Q0E=
users:
- name: default-auth
  user:
    client-certificate: /var/lib/kubelet/pki/kubelet-client-current.pem
    client-key: /var/lib/kubelet/pki/kubelet-client-current.pem
contexts:
- name: default-context
  context:
    cluster: default-cluster
    user: default-auth
current-context: default-context
)";

class KubeletBootstrapTest : public kkadm::testing::JoinPhasesTest {
 protected:
  KubeletBootstrapTest() {
    node_api_.Put("/api/v1/nodes/worker-1", kkadm::testing::ReadyNode("worker-1", true));
    // The stand-in for the kubelet: while kkadm waits for the TLS bootstrap, the bootstrap
    // credential is on disk; after `bootstrap_after_` polls kubelet.conf and its certificate are.
    clock_.on_sleep = [this] {
      if (out_.str().find("perform the TLS Bootstrap") == std::string::npos) return;
      bootstrap_conf_seen_ = Read("/etc/kubernetes/bootstrap-kubelet.conf");
      bootstrap_conf_mode_ = Mode("/etc/kubernetes/bootstrap-kubelet.conf");
      if (++polls_ + 1 < bootstrap_after_) return;
      ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf", kKubeletConf, 0600).ok());
      ASSERT_TRUE(
          fs_.WriteFile("/var/lib/kubelet/pki/kubelet-client-current.pem", "PEM", 0600).ok());
    };
    network().kube = [this](util::KubeClientConfig config) -> std::unique_ptr<util::KubeClient> {
      kubelet_client_configs_.push_back(std::move(config));
      return std::make_unique<kkadm::testing::ForwardingKubeClient>(node_api_);
    };
  }
  int polls_ = 0;  // sleeps while waiting for the TLS bootstrap
  int bootstrap_after_ = 3;
  std::string bootstrap_conf_seen_;
  unsigned bootstrap_conf_mode_ = 0;
  std::vector<util::KubeClientConfig> kubelet_client_configs_;
};

TEST_F(KubeletBootstrapTest, WorkerBootstrapsAndTheCredentialIsRemovedAfterwards) {
  data_.cfg.node_registration.taints =
      std::vector<config::Taint>{{"dedicated", "gpu", "NoSchedule"}};
  Status s = RunJoinKubeletStart(data_);
  ASSERT_TRUE(s.ok()) << s.message() << out_.str();
  // While the kubelet bootstrapped: the TLS bootstrap identity, private.
  EXPECT_THAT(bootstrap_conf_seen_, HasSubstr("token: " + fixture_.Token()));
  EXPECT_THAT(bootstrap_conf_seen_, HasSubstr("name: tls-bootstrap-token-user"));
  EXPECT_EQ(bootstrap_conf_mode_, 0600u);
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/bootstrap-kubelet.conf"));
  EXPECT_EQ(Read("/etc/kubernetes/pki/ca.crt"), fixture_.ca_pem);
  EXPECT_EQ(Mode("/etc/kubernetes/pki/ca.crt"), 0644u);
  EXPECT_THAT(Read("/var/lib/kubelet/config.yaml"), HasSubstr("cgroupDriver: systemd"));
  EXPECT_THAT(Read("/var/lib/kubelet/kubeadm-flags.env"),
              HasSubstr("--register-with-taints=dedicated=gpu:NoSchedule"));
  EXPECT_THAT(init_.calls, ElementsAre("Stop kubelet.service", "Enable kubelet.service",
                                       "ReloadIfStale kubelet.service", "Start kubelet.service"));
  EXPECT_THAT(healthz_urls_, ElementsAre("http://127.0.0.1:10248/healthz"));
  EXPECT_EQ(clock_.slept(), std::chrono::milliseconds(400));  // two 200 ms polls
  // The Node is annotated with kubelet.conf's identity, its certificate read from the node.
  ASSERT_EQ(kubelet_client_configs_.size(), 1u);
  EXPECT_EQ(kubelet_client_configs_[0].client_cert_pem, "PEM");
  EXPECT_EQ(kubelet_client_configs_[0].server, "https://10.0.0.1:6443");
  EXPECT_EQ(node_api_.Object("/api/v1/nodes/worker-1")["metadata"]["annotations"]
                                                      ["kubeadm.alpha.kubernetes.io/cri-socket"],
            "unix:///var/run/containerd/containerd.sock");
  EXPECT_THAT(out_.str(), HasSubstr("[kubelet-start] Starting the kubelet\n"));
  EXPECT_THAT(out_.str(), HasSubstr("[kubelet-check] The kubelet is healthy after"));
  EXPECT_THAT(out_.str(),
              HasSubstr("[kubelet-start] Waiting for the kubelet to perform the TLS Bootstrap\n"));
}

TEST_F(KubeletBootstrapTest, ControlPlaneNodeRegistersWithoutTaintFlags) {
  MakeControlPlane();
  node_api_.Put("/api/v1/nodes/cp-2", kkadm::testing::ReadyNode("cp-2", true));
  ASSERT_TRUE(RunJoinKubeletStart(data_).ok()) << out_.str();
  EXPECT_THAT(Read("/var/lib/kubelet/kubeadm-flags.env"), Not(HasSubstr("--register-with-taints")));
}

TEST_F(KubeletBootstrapTest, TlsBootstrapThatNeverEndsTimesOutAndStillRemovesTheCredential) {
  bootstrap_after_ = 1 << 30;
  Status s = RunJoinKubeletStart(data_);
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_THAT(s.message(),
              HasSubstr("timed out waiting for the kubelet's TLS bootstrap after 5m0s"));
  EXPECT_EQ(clock_.slept(), std::chrono::minutes(5));
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/bootstrap-kubelet.conf"));
  EXPECT_THAT(out_.str(), HasSubstr("\nUnfortunately, an error has occurred:\n\t"));
  EXPECT_THAT(out_.str(), HasSubstr("'journalctl -xeu kubelet'"));
  // A worker has no control-plane containers to list.
  EXPECT_THAT(out_.str(), ::testing::Not(HasSubstr("crictl")));
}

TEST_F(KubeletBootstrapTest, UnhealthyKubeletFailsBeforeWaitingForTheBootstrap) {
  kubelet_healthy_ = false;
  data_.cfg.timeouts.kubelet_health_check = std::chrono::seconds(2);
  Status s = RunJoinKubeletStart(data_);
  EXPECT_THAT(s.message(), HasSubstr("curl -sSL http://127.0.0.1:10248/healthz"));
  EXPECT_EQ(polls_, 0);
  EXPECT_THAT(out_.str(), Not(HasSubstr("perform the TLS Bootstrap")));
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/bootstrap-kubelet.conf"));
}

TEST_F(KubeletBootstrapTest, AnExistingCaIsKept) {
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/pki/ca.crt", "KEEP", 0644).ok());
  ASSERT_TRUE(RunJoinKubeletStart(data_).ok());
  EXPECT_EQ(Read("/etc/kubernetes/pki/ca.crt"), "KEEP");
}

TEST_F(KubeletBootstrapTest, HealthzAddressComesFromTheClustersKubeletConfiguration) {
  EXPECT_EQ(KubeletHealthzUrl(nullptr), "http://127.0.0.1:10248/healthz");
  EXPECT_EQ(KubeletHealthzUrl({{"healthzBindAddress", "::1"}, {"healthzPort", 10300}}),
            "http://[::1]:10300/healthz");
}

TEST_F(KubeletBootstrapTest, DryRunWaitsForNothing) {
  DryRunKubeletBootstrapWaiter dry(printer_);
  data_.kubelet_bootstrap = &dry;
  ASSERT_TRUE(RunJoinKubeletStart(data_).ok());
  EXPECT_EQ(polls_, 0);
  EXPECT_TRUE(kubelet_client_configs_.empty());
  EXPECT_TRUE(healthz_urls_.empty());
  EXPECT_THAT(out_.str(), HasSubstr("[kubelet-start] Would wait for the kubelet to perform the TLS "
                                    "Bootstrap\n[kubelet-start] Would annotate the Node with its "
                                    "CRI socket\n"));
  EXPECT_TRUE(node_api_.calls().empty());
}

}  // namespace
}  // namespace kkadm::phases
