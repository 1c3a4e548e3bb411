// Tests for show-join-command: kubeadm's banner and join command shapes.
#include "app/phases/showjoincommand/show_join_command_phase.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>

#include "app/phases/bootstraptoken/token.h"
#include "app/phases/showjoincommand/join_command.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::HasSubstr;

class ShowJoinCommandTest : public testing::ClusterPhasesTest {
 protected:
  void SetUp() override {
    WriteAdminConf(MakeCa(), "https://lb.example.com:6443");
    const std::string cmd = "cd '" + root_.path() +
                            "/etc/kubernetes/pki' && openssl x509 -in ca.crt -pubkey -noout | openssl "
                            "pkey -pubin -outform der | openssl dgst -sha256 -r | cut -c1-64";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[128] = {};
    ASSERT_NE(fgets(buf, sizeof buf, p), nullptr);
    pclose(p);
    pin_ = "sha256:" + std::string(buf, 64);
    data_.cfg.bootstrap_tokens = {*ParseBootstrapToken("abcdef.0123456789abcdef")};
  }
  std::string pin_;
};

TEST_F(ShowJoinCommandTest, WorkerOnlyWithoutControlPlaneEndpoint) {
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  EXPECT_EQ(out_.str(),
            "\nYour Kubernetes control-plane has initialized successfully!\n\n"
            "To start using your cluster, you need to run the following as a regular user:\n\n"
            "  mkdir -p $HOME/.kube\n"
            "  sudo cp -i /etc/kubernetes/admin.conf $HOME/.kube/config\n"
            "  sudo chown $(id -u):$(id -g) $HOME/.kube/config\n\n"
            "Alternatively, if you are the root user, you can run:\n\n"
            "  export KUBECONFIG=/etc/kubernetes/admin.conf\n\n"
            "You should now deploy a pod network to the cluster.\n"
            "Run \"kubectl apply -f [podnetwork].yaml\" with one of the options listed at:\n"
            "  https://kubernetes.io/docs/concepts/cluster-administration/addons/\n\n"
            "Then you can join any number of worker nodes by running the following on each as root:\n\n"
            "kkadm join lb.example.com:6443 --token abcdef.0123456789abcdef \\\n"
            "\t--discovery-token-ca-cert-hash " + pin_ + " \n");
}

TEST_F(ShowJoinCommandTest, ControlPlaneCommandWithUploadedCerts) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com:6443";
  data_.upload_certs = true;
  data_.certificate_key = std::string(64, 'c');
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  EXPECT_THAT(out_.str(),
              HasSubstr("You can now join any number of control-plane nodes running the following "
                        "command on each as root:\n\n"
                        "  kkadm join lb.example.com:6443 --token abcdef.0123456789abcdef \\\n"
                        "\t--discovery-token-ca-cert-hash " + pin_ + " \\\n"
                        "\t--control-plane --certificate-key " + std::string(64, 'c') + "\n\n"
                        "Please note that the certificate-key gives access to cluster sensitive "
                        "data, keep it secret!\nAs a safeguard, uploaded-certs will be deleted in "
                        "two hours; If necessary, you can use\n\"kkadm init phase upload-certs "
                        "--upload-certs\" to reload certs afterward.\n\nThen you can join"));
}

TEST_F(ShowJoinCommandTest, ControlPlaneCommandWithoutUploadAndWithheldValues) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com";
  data_.skip_token_print = true;
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  EXPECT_THAT(out_.str(), HasSubstr("by copying certificate authorities\nand service account keys on "
                                    "each node and then running the following as root:\n\n"
                                    "  kkadm join lb.example.com:6443 --token <value withheld> \\\n"
                                    "\t--discovery-token-ca-cert-hash " + pin_ + " \\\n"
                                    "\t--control-plane \n\n"));
  EXPECT_THAT(out_.str(), ::testing::Not(HasSubstr("0123456789abcdef")));
}

TEST_F(ShowJoinCommandTest, OneBannerPerToken) {
  data_.cfg.bootstrap_tokens.push_back(*ParseBootstrapToken("zyxwvu.0123456789abcdef"));
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  EXPECT_THAT(out_.str(), HasSubstr("--token zyxwvu.0123456789abcdef"));
  EXPECT_THAT(NewShowJoinCommandPhase(data_).dependencies,
              ::testing::ElementsAre("bootstrap-token", "upload-certs"));
}

TEST_F(ShowJoinCommandTest, MissingKubeconfigFails) {
  data_.admin_kubeconfig_path = "/nonexistent.conf";
  Status s = RunTree(NewShowJoinCommandPhase(data_));
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("failed to print join command"));
}

}  // namespace
}  // namespace kkadm::phases
