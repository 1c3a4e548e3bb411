// control-plane-prepare: certificates downloaded from a kubeadm-certs Secret made by init's own
// upload-certs, the node's certificates, kubeconfigs and static Pods, re-runs reusing them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/certs/certs.h"
#include "app/phases/join/control_plane_prepare_phase.h"
#include "app/phases/uploadcerts/upload_certs.h"
#include "app/util/pki/certificate.h"
#include "tests/phases/join/join_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

constexpr const char* kKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

class ControlPlanePrepareTest : public kkadm::testing::JoinPhasesTest {
 protected:
  ControlPlanePrepareTest() {
    MakeControlPlane();
    cluster_.init_cfg.cluster.encryption_algorithm = config::EncryptionAlgorithm::kEcdsaP256;
    data_.cfg.control_plane->certificate_key = kKey;
  }

  // The first control-plane node: its PKI made by init's certs work, uploaded by upload-certs into
  // the API the bootstrap token reads.
  void InitFirstNode() {
    config::InitConfiguration first = cluster_.init_cfg;
    first.node_registration.name = "cp-1";
    first.local_api_endpoint.advertise_address = "10.0.0.1";
    certs::CertsEnv env{first, first_fs_, printer_, clock_, false, nullptr};
    ASSERT_TRUE(certs::CreatePKIAssets(env).ok());
    ASSERT_TRUE(
        UploadCerts(bootstrap_api_, first_fs_, printer_, first.cluster, kKey, clock_.Now()).ok());
  }

  kkadm::testing::TempDir first_root_;
  util::RealFileSystem first_fs_{first_root_.path()};
};

TEST_F(ControlPlanePrepareTest, DownloadsWhatInitUploadedByteForByte) {
  InitFirstNode();
  ASSERT_TRUE(RunDownloadCerts(data_).ok()) << out_.str();
  for (const auto& [key, path] : CertsToTransfer(cluster_.init_cfg.cluster)) {
    EXPECT_EQ(Read(path), first_fs_.ReadFile(path).value_or("?")) << path;
    EXPECT_EQ(Mode(path), key.size() > 4 && key.substr(key.size() - 4) == ".key" ? 0600u : 0644u)
        << path;
  }
  EXPECT_THAT(
      out_.str(),
      HasSubstr("[download-certs] Downloading the certificates in Secret \"kubeadm-certs\" in "
                "the \"kube-system\" Namespace\n"));
  EXPECT_THAT(
      out_.str(),
      HasSubstr("[download-certs] Saving the certificates to the folder: \"/etc/kubernetes/pki\""));
}

TEST_F(ControlPlanePrepareTest, ExpiredSecretAndWrongKeyAreExplained) {
  Status missing = RunDownloadCerts(data_);
  EXPECT_EQ(missing.message(),
            "error downloading certs: error downloading the secret: Secret \"kubeadm-certs\" was "
            "not found in the "
            "\"kube-system\" Namespace. This Secret might have expired. Please, run `kkadm init "
            "phase upload-certs "
            "--upload-certs` on a control plane to generate a new one");
  InitFirstNode();
  data_.cfg.control_plane->certificate_key = std::string(64, 'f');
  Status wrong = RunDownloadCerts(data_);
  EXPECT_THAT(wrong.message(), HasSubstr("error decoding secret data with provided key"));
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/pki/ca.key"));
}

TEST_F(ControlPlanePrepareTest, CreatesThisNodesCertificatesKubeconfigsAndPods) {
  InitFirstNode();
  ASSERT_TRUE(RunDownloadCerts(data_).ok());
  ASSERT_TRUE(RunPrepareCerts(data_).ok()) << out_.str();
  auto apiserver = util::pki::Certificate::ParsePem(Read("/etc/kubernetes/pki/apiserver.crt"));
  ASSERT_TRUE(apiserver.has_value());
  EXPECT_THAT(apiserver->IpAddresses(), Contains("10.0.0.2"));
  EXPECT_THAT(apiserver->DnsNames(), Contains("cp-2"));
  auto peer = util::pki::Certificate::ParsePem(Read("/etc/kubernetes/pki/etcd/peer.crt"));
  ASSERT_TRUE(peer.has_value());
  EXPECT_EQ(peer->CommonName(), "cp-2");
  // The shared CA is the downloaded one, not a new one.
  EXPECT_EQ(Read("/etc/kubernetes/pki/ca.crt"),
            first_fs_.ReadFile("/etc/kubernetes/pki/ca.crt").value_or("?"));
  EXPECT_THAT(out_.str(), HasSubstr("[certs] Using existing ca certificate authority"));

  ASSERT_TRUE(RunPrepareKubeconfigs(data_).ok()) << out_.str();
  for (const char* file : {"admin.conf", "controller-manager.conf", "scheduler.conf"}) {
    EXPECT_EQ(Mode(std::string("/etc/kubernetes/") + file), 0600u) << file;
  }
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/kubelet.conf"));
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/super-admin.conf"));
  EXPECT_THAT(Read("/etc/kubernetes/admin.conf"), HasSubstr("server: https://cp.example:6443"));

  ASSERT_TRUE(RunPrepareControlPlane(data_).ok());
  EXPECT_THAT(Read("/etc/kubernetes/manifests/kube-apiserver.yaml"),
              HasSubstr("--advertise-address=10.0.0.2"));
  EXPECT_TRUE(fs_.Exists("/etc/kubernetes/manifests/kube-controller-manager.yaml"));
  EXPECT_TRUE(fs_.Exists("/etc/kubernetes/manifests/kube-scheduler.yaml"));
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/manifests/etcd.yaml"));

  // Re-run after a crash: everything is reused, nothing changes.
  const std::string cert = Read("/etc/kubernetes/pki/apiserver.crt");
  const std::string admin = Read("/etc/kubernetes/admin.conf");
  ASSERT_TRUE(RunDownloadCerts(data_).ok());
  ASSERT_TRUE(RunPrepareCerts(data_).ok());
  ASSERT_TRUE(RunPrepareKubeconfigs(data_).ok());
  EXPECT_EQ(Read("/etc/kubernetes/pki/apiserver.crt"), cert);
  EXPECT_EQ(Read("/etc/kubernetes/admin.conf"), admin);
}

TEST_F(ControlPlanePrepareTest, WorkerJoinWritesNothing) {
  data_.cfg.control_plane.reset();
  ASSERT_TRUE(RunDownloadCerts(data_).ok());
  ASSERT_TRUE(RunPrepareCerts(data_).ok());
  ASSERT_TRUE(RunPrepareKubeconfigs(data_).ok());
  ASSERT_TRUE(RunPrepareControlPlane(data_).ok());
  EXPECT_FALSE(fs_.Exists("/etc"));
  EXPECT_TRUE(bootstrap_api_.calls().empty());
}

}  // namespace
}  // namespace kkadm::phases
