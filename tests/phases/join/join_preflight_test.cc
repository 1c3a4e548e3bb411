// The join preflight work: node checks, discovery, the Node check, kkadm's own earlier work,
// and the control-plane conditions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/join/preflight_phase.h"
#include "tests/phases/join/join_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

class JoinPreflightTest : public kkadm::testing::JoinPhasesTest {
 protected:
  std::vector<std::string> Names() const {
    std::vector<std::string> names;
    for (const auto& check : JoinNodeChecks(data_)) names.push_back(check->Name());
    return names;
  }
  // A kubeconfig trusting `ca` whose client certificate says `cn`.
  std::string Kubeconfig(const std::string& ca, const std::string& cn) const {
    return util::EncodeKubeconfig(util::NewKubeconfigWithClientCert(
        fixture_.server, "kubernetes", cn, ca, "KEY", kkadm::testing::MakeCaPem(cn)));
  }
};

TEST_F(JoinPreflightTest, WorkerCheckListIsKubeadms) {
  EXPECT_THAT(
      Names(),
      ElementsAre("FileAvailable--etc-kubernetes-kubelet.conf",
                  "FileAvailable--etc-kubernetes-bootstrap-kubelet.conf", "CRI", "Swap",
                  "FileExisting-ip", "FileExisting-iptables", "FileExisting-mount",
                  "FileExisting-nsenter", "FileExisting-ebtables", "FileExisting-ethtool",
                  "FileExisting-socat", "FileExisting-tc", "FileExisting-touch", "Hostname",
                  "Service-Kubelet", "Port-10250", "FileAvailable--etc-kubernetes-pki-ca.crt",
                  "HTTPProxy", "FileContent--proc-sys-net-ipv4-ip_forward"));
  MakeControlPlane();
  EXPECT_THAT(Names(), Not(::testing::Contains("FileAvailable--etc-kubernetes-pki-ca.crt")));
}

TEST_F(JoinPreflightTest, WorkerPassesThenDiscoversAndChecksTheNode) {
  ASSERT_TRUE(RunJoinPreflight(data_).ok()) << out_.str();
  EXPECT_EQ(access_.discoveries, 1);
  EXPECT_THAT(out_.str(), HasSubstr("[preflight] Running pre-flight checks\n"));
  ASSERT_FALSE(bootstrap_api_.calls().empty());
  EXPECT_EQ(bootstrap_api_.calls().back().path, "/api/v1/nodes/worker-1");
  EXPECT_FALSE(data_.preflight_checks_failed);
}

TEST_F(JoinPreflightTest, ReadyNodeWithTheSameNameIsRefused) {
  bootstrap_api_.Put("/api/v1/nodes/worker-1", kkadm::testing::ReadyNode("worker-1", true));
  Status s = RunJoinPreflight(data_);
  EXPECT_EQ(s.message(),
            "a Node with name \"worker-1\" and status \"Ready\" already exists in the cluster. You "
            "must delete "
            "the existing Node or change the name of this new joining Node");
  EXPECT_FALSE(data_.preflight_checks_failed);  // not a check: exit code 1, not 2
  bootstrap_api_.Put("/api/v1/nodes/worker-1", kkadm::testing::ReadyNode("worker-1", false));
  EXPECT_TRUE(RunJoinPreflight(data_).ok());
}

TEST_F(JoinPreflightTest, FailedCheckStopsBeforeDiscovery) {
  machine_.euid = 1000;
  Status s = RunJoinPreflight(data_);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(data_.preflight_checks_failed);
  EXPECT_EQ(access_.discoveries, 0);
  EXPECT_TRUE(bootstrap_api_.calls().empty());
}

TEST_F(JoinPreflightTest, ExistingCaOfAnotherSourceFailsItsCheck) {
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/pki/ca.crt", "not a CA", 0644).ok());
  Status s = RunJoinPreflight(data_);
  EXPECT_TRUE(data_.preflight_checks_failed);
  EXPECT_THAT(out_.str(), HasSubstr("[ERROR FileAvailable--etc-kubernetes-pki-ca.crt]"));
  EXPECT_EQ(access_.discoveries, 0);
}

// A join run again: the CA file it wrote, the kubelet it started (its port, the kubeconfig of its
// TLS bootstrap, the Ready Node of this name) are kkadm's own work, recorded in its journal.
TEST_F(JoinPreflightTest, OwnWorkOfAnEarlierJoinIsLeftOut) {
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/pki/ca.crt", fixture_.ca_pem, 0644).ok());
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf",
                            Kubeconfig(fixture_.ca_pem, "system:node:worker-1"), 0600)
                  .ok());
  machine_.busy_ports.insert(10250);  // its kubelet runs
  bootstrap_api_.Put("/api/v1/nodes/worker-1", kkadm::testing::ReadyNode("worker-1", true));
  data_.own_work.files = {"/etc/kubernetes/pki/ca.crt"};
  data_.own_work.units = {"kubelet.service"};
  data_.own_work.recorded_in = "/var/lib/kkadm/journal";
  Status s = RunJoinPreflight(data_);
  ASSERT_TRUE(s.ok()) << s.message() << out_.str();
  EXPECT_THAT(out_.str(),
              HasSubstr("[preflight] Leaving out the checks that only kkadm's own earlier work on "
                        "this node fails (recorded in /var/lib/kkadm/journal): "
                        "FileAvailable--etc-kubernetes-kubelet.conf, Port-10250, "
                        "FileAvailable--etc-kubernetes-pki-ca.crt\n"));
}

// The kubelet kkadm started holds the identity of a Node of this name, but in another cluster:
// the Ready Node of the discovered cluster is someone else's.
TEST_F(JoinPreflightTest, ReadyNodeIsRefusedWhenTheKubeletIdentityIsOfAnotherCluster) {
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf",
                            Kubeconfig(kkadm::testing::MakeCaPem("other"), "system:node:worker-1"),
                            0600)
                  .ok());
  data_.own_work.units = {"kubelet.service"};
  bootstrap_api_.Put("/api/v1/nodes/worker-1", kkadm::testing::ReadyNode("worker-1", true));
  EXPECT_THAT(RunJoinPreflight(data_).message(), HasSubstr("already exists in the cluster"));
}

// Without kkadm's record the same files are a stranger's, as for kubeadm: reset first.
TEST_F(JoinPreflightTest, FilesKkadmDidNotRecordFailTheirChecks) {
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf",
                            Kubeconfig(fixture_.ca_pem, "system:node:worker-1"), 0600)
                  .ok());
  Status s = RunJoinPreflight(data_);
  EXPECT_TRUE(data_.preflight_checks_failed);
  EXPECT_THAT(out_.str(), HasSubstr("[ERROR FileAvailable--etc-kubernetes-kubelet.conf]"));
  EXPECT_THAT(out_.str(), Not(HasSubstr("Leaving out")));
}

TEST_F(JoinPreflightTest, ReadyNodeIsStillRefusedWhenTheKubeletIdentityIsAnotherNodes) {
  ASSERT_TRUE(fs_.WriteFile("/etc/kubernetes/kubelet.conf",
                            Kubeconfig(fixture_.ca_pem, "system:node:other"), 0600)
                  .ok());
  data_.own_work.units = {"kubelet.service"};
  bootstrap_api_.Put("/api/v1/nodes/worker-1", kkadm::testing::ReadyNode("worker-1", true));
  EXPECT_THAT(RunJoinPreflight(data_).message(), HasSubstr("already exists in the cluster"));
}

TEST_F(JoinPreflightTest, ControlPlaneNeedsAControlPlaneEndpoint) {
  MakeControlPlane();
  cluster_.init_cfg.cluster.control_plane_endpoint.clear();
  Status s = RunJoinPreflight(data_);
  EXPECT_EQ(s.message(),
            "unable to add a new control plane instance a cluster that doesn't have a stable "
            "controlPlaneEndpoint address");
  EXPECT_THAT(
      out_.str(),
      HasSubstr(
          "One or more conditions for hosting a new control plane instance is not satisfied."));
}

TEST_F(JoinPreflightTest, ControlPlaneWithoutCertificateKeyNeedsTheSharedCerts) {
  MakeControlPlane();
  Status s = RunJoinPreflight(data_);
  EXPECT_THAT(s.message(), HasSubstr("/etc/kubernetes/pki/ca.crt, /etc/kubernetes/pki/ca.key"));
  EXPECT_THAT(s.message(), HasSubstr("/etc/kubernetes/pki/etcd/ca.key"));
  for (const char* file : {"ca.crt", "ca.key", "sa.key", "sa.pub", "front-proxy-ca.crt",
                           "front-proxy-ca.key", "etcd/ca.crt", "etcd/ca.key"}) {
    ASSERT_TRUE(fs_.WriteFile(std::string("/etc/kubernetes/pki/") + file, "x", 0600).ok());
  }
  s = RunJoinPreflight(data_);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_THAT(out_.str(), HasSubstr("[preflight] Running pre-flight checks before initializing the "
                                    "new control plane instance"));
}

TEST_F(JoinPreflightTest, ControlPlaneRunsTheSecondaryInitChecks) {
  MakeControlPlane();
  data_.cfg.control_plane->certificate_key = std::string(64, 'a');
  machine_.busy_ports.insert(2379);
  Status s = RunJoinPreflight(data_);
  EXPECT_TRUE(data_.preflight_checks_failed);
  EXPECT_THAT(out_.str(), HasSubstr("[ERROR Port-2379]"));
  // The common node checks ran once, in the join checks, not again.
  const std::string out = out_.str();
  EXPECT_EQ(out.find("Running pre-flight checks before"),
            out.rfind("Running pre-flight checks before"));
}

}  // namespace
}  // namespace kkadm::phases
