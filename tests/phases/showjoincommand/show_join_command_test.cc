// Tests for show-join-command: kubeadm's banner with kkadm's one-argument join commands, each
// followed by kubeadm's flag form.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "app/phases/bootstraptoken/token.h"
#include "app/phases/init/show_join_command_phase.h"
#include "app/phases/showjoincommand/join_command.h"
#include "app/util/join_token.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ShowJoinCommandTest : public testing::ClusterPhasesTest {
 protected:
  void SetUp() override {
    WriteAdminConf(MakeCa(), "https://lb.example.com:6443");
    const std::string cmd =
        "cd '" + root_.path() +
        "/etc/kubernetes/pki' && openssl x509 -in ca.crt -pubkey -noout | openssl "
        "pkey -pubin -outform der | openssl dgst -sha256 -r | cut -c1-64";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[128] = {};
    ASSERT_NE(fgets(buf, sizeof buf, p), nullptr);
    pclose(p);
    pin_ = "sha256:" + std::string(buf, 64);
    data_.cfg.bootstrap_tokens = {*ParseBootstrapToken("abcdef.0123456789abcdef")};
  }
  // Every "kkadm join kk1.…" of the output, decoded.
  std::vector<util::JoinToken> PrintedTokens() {
    std::vector<util::JoinToken> out;
    static const std::regex kJoin("kkadm join (kk1\\.[A-Za-z0-9_-]+)");
    const std::string text = out_.str();
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kJoin);
         it != std::sregex_iterator(); ++it) {
      auto token = util::DecodeJoinToken((*it)[1].str());
      EXPECT_TRUE(token.has_value()) << (*it)[1].str();
      if (token) out.push_back(*token);
    }
    return out;
  }
  std::string pin_;
};

TEST_F(ShowJoinCommandTest, WorkerOnlyWithoutControlPlaneEndpoint) {
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  auto worker = EncodedJoinToken(fs_, {.kubeconfig_path = "/etc/kubernetes/admin.conf",
                                       .control_plane_endpoint = "",
                                       .token = "abcdef.0123456789abcdef",
                                       .certificate_key = ""});
  ASSERT_TRUE(worker.has_value());
  EXPECT_EQ(
      out_.str(),
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
      "kkadm join " +
          *worker +
          "\n\n"
          "or, with kubeadm's flags:\n\n"
          "kkadm join lb.example.com:6443 --token abcdef.0123456789abcdef \\\n"
          "\t--discovery-token-ca-cert-hash " +
          pin_ + " \n");
  auto tokens = PrintedTokens();
  ASSERT_EQ(tokens.size(), 1u);
  EXPECT_EQ(tokens[0].endpoints, std::vector<std::string>{"lb.example.com:6443"});
  EXPECT_EQ(tokens[0].bootstrap_token, "abcdef.0123456789abcdef");
  EXPECT_EQ(tokens[0].ca_cert_hashes, std::vector<std::string>{pin_});
  EXPECT_EQ(tokens[0].certificate_key, "");
}

TEST_F(ShowJoinCommandTest, ControlPlaneCommandWithUploadedCerts) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com:6443";
  data_.upload_certs = true;
  data_.certificate_key = std::string(64, 'c');
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  auto tokens = PrintedTokens();
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].certificate_key, std::string(64, 'c'));
  EXPECT_EQ(tokens[0].endpoints, std::vector<std::string>{"lb.example.com:6443"});
  EXPECT_EQ(tokens[1].certificate_key, "");
  auto control_plane = util::EncodeJoinToken(tokens[0]);
  EXPECT_THAT(out_.str(),
              HasSubstr("You can now join any number of control-plane nodes running the following "
                        "command on each as root:\n\n"
                        "  kkadm join " +
                        *control_plane +
                        "\n\n"
                        "or, with kubeadm's flags:\n\n"
                        "  kkadm join lb.example.com:6443 --token abcdef.0123456789abcdef \\\n"
                        "\t--discovery-token-ca-cert-hash " +
                        pin_ +
                        " \\\n"
                        "\t--control-plane --certificate-key " +
                        std::string(64, 'c') +
                        "\n\n"
                        "Please note that the certificate-key gives access to cluster sensitive "
                        "data, keep it secret!\nAs a safeguard, uploaded-certs will be deleted in "
                        "two hours; If necessary, you can use\n\"kkadm init phase upload-certs "
                        "--upload-certs\" to reload certs afterward.\n\nThen you can join"));
}

TEST_F(ShowJoinCommandTest, ControlPlaneWithoutUploadCertsHasNoKey) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com";
  data_.cfg.certificate_key = std::string(64, 'c');  // not uploaded: useless to a joining node
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  auto tokens = PrintedTokens();
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].certificate_key, "");
  EXPECT_EQ(tokens[0].endpoints, std::vector<std::string>{"lb.example.com:6443"});
  auto token = util::EncodeJoinToken(tokens[0]);
  EXPECT_THAT(out_.str(),
              HasSubstr("by copying certificate authorities\nand service account keys on "
                        "each node and then running the following as root:\n\n"
                        "  kkadm join " +
                        *token +
                        " --control-plane\n\n"
                        "or, with kubeadm's flags:\n\n"
                        "  kkadm join lb.example.com:6443 --token abcdef.0123456789abcdef \\\n"
                        "\t--discovery-token-ca-cert-hash " +
                        pin_ +
                        " \\\n"
                        "\t--control-plane \n\n"));
  EXPECT_THAT(out_.str(), Not(HasSubstr(std::string(64, 'c'))));
}

TEST_F(ShowJoinCommandTest, WithheldValues) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com";
  data_.upload_certs = true;
  data_.certificate_key = std::string(64, 'c');
  data_.skip_token_print = true;
  data_.skip_certificate_key_print = true;
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  EXPECT_THAT(out_.str(),
              HasSubstr("  kkadm join <value withheld> --control-plane --certificate-key "
                        "<value withheld>\n\n"));
  EXPECT_THAT(out_.str(), HasSubstr("root:\n\nkkadm join <value withheld>\n\n"));
  EXPECT_THAT(out_.str(), Not(HasSubstr("kk1.")));
  EXPECT_THAT(out_.str(), Not(HasSubstr("0123456789abcdef")));
  EXPECT_THAT(out_.str(), Not(HasSubstr(std::string(64, 'c'))));
}

TEST_F(ShowJoinCommandTest, WithheldKeyOnly) {
  data_.cfg.cluster.control_plane_endpoint = "lb.example.com";
  data_.upload_certs = true;
  data_.certificate_key = std::string(64, 'c');
  data_.skip_certificate_key_print = true;
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  auto tokens = PrintedTokens();
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0].certificate_key, "");
  EXPECT_THAT(out_.str(), HasSubstr(" --control-plane --certificate-key <value withheld>\n"));
  EXPECT_THAT(out_.str(), Not(HasSubstr(std::string(64, 'c'))));
}

TEST_F(ShowJoinCommandTest, OneBannerPerToken) {
  data_.cfg.bootstrap_tokens.push_back(*ParseBootstrapToken("zyxwvu.0123456789abcdef"));
  ASSERT_TRUE(RunTree(NewShowJoinCommandPhase(data_)).ok());
  EXPECT_THAT(out_.str(), HasSubstr("--token zyxwvu.0123456789abcdef"));
  auto tokens = PrintedTokens();
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[1].bootstrap_token, "zyxwvu.0123456789abcdef");
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
