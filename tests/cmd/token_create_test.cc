// Tests for `kkadm token create`: the join token it prints, --control-plane's certificate upload,
// --print-join-command and --print-cloud-init, against a fake API server and a CA made by openssl.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "app/phases/bootstraptoken/cloud_init.h"
#include "app/phases/bootstraptoken/token.h"
#include "app/phases/uploadcerts/upload_certs.h"
#include "app/phases/uploadconfig/upload_config.h"
#include "app/util/join_token.h"
#include "app/util/pubkey_pin.h"
#include "app/util/rfc3339.h"
#include "app/util/yaml/yaml.h"
#include "tests/cmd/sample_values.h"
#include "tests/cmd/token_fixture.h"

namespace kkadm::cmd {
namespace {

using samples::kKey;

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;

const char kToken[] = "abcdef.0123456789abcdef";
const char kSecrets[] = "/api/v1/namespaces/kube-system/secrets/";

class TokenCreateTest : public testing::TokenCommandTest {
 protected:
  void SetUp() override {
    ca_ = MakeCa();
    WriteAdminConf(ca_);
  }
  void PutClusterConfiguration(const std::string& extra) {
    client_.Put("/api/v1/namespaces/kube-system/configmaps/kubeadm-config",
                {{"apiVersion", "v1"},
                 {"kind", "ConfigMap"},
                 {"metadata", {{"name", "kubeadm-config"}, {"namespace", "kube-system"}}},
                 {"data",
                  {{"ClusterConfiguration",
                    "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n" + extra}}}});
  }
  void PutControlPlaneNode(const std::string& name, const std::string& cri_socket) {
    client_.Put("/api/v1/nodes/" + name,
                {{"apiVersion", "v1"},
                 {"kind", "Node"},
                 {"metadata",
                  {{"name", name},
                   {"labels", {{"node-role.kubernetes.io/control-plane", ""}}},
                   {"annotations", {{phases::kCriSocketAnnotation, cri_socket}}}}}});
  }
  // The shared CA files upload-certs sends (ca.* exist from SetUp).
  void MakeSharedCerts() {
    MakeCa("/etc/kubernetes/pki", "front-proxy-ca");
    MakeCa("/etc/kubernetes/pki/etcd", "ca");
    const std::string pki = root_.path() + "/etc/kubernetes/pki";
    ASSERT_TRUE(testing::RunOpenssl(pki, "genrsa -out sa.key 2048"));
    ASSERT_TRUE(testing::RunOpenssl(pki, "rsa -in sa.key -pubout -out sa.pub"));
  }
  util::JoinToken Printed() {
    std::string text = cmd_out_.str();
    EXPECT_FALSE(text.empty());
    if (!text.empty()) text.pop_back();
    auto token = util::DecodeJoinToken(text);
    EXPECT_TRUE(token.has_value()) << token.status().message();
    return token.value_or(util::JoinToken{});
  }
  std::vector<std::string> Pins() { return *util::PinsOfPemBundle(ca_); }
  // Paths of every CREATE/UPDATE/PATCH call.
  size_t Writes() const { return client_.Writes().size(); }

  std::string ca_;
};

TEST_F(TokenCreateTest, PrintsAJoinTokenForTheNewToken) {
  PutClusterConfiguration("");
  ASSERT_EQ(Run({"token", "create", kToken}), 0) << status_.message();
  util::JoinToken token = Printed();
  EXPECT_EQ(token.endpoints, std::vector<std::string>{"192.0.2.10:6443"});
  EXPECT_EQ(token.bootstrap_token, kToken);
  EXPECT_EQ(token.ca_cert_hashes, Pins());
  EXPECT_EQ(token.certificate_key, "");
  EXPECT_EQ(servers_, std::vector<std::string>{"https://192.0.2.10:6443"});  // admin.conf's
  auto secret = phases::BootstrapTokenFromSecret(Secret("abcdef"));
  ASSERT_TRUE(secret.has_value());
  EXPECT_THAT(secret->usages, ::testing::UnorderedElementsAre("signing", "authentication"));
  EXPECT_EQ(secret->groups,
            std::vector<std::string>{"system:bootstrappers:kubeadm:default-node-token"});
  EXPECT_EQ(secret->expires, clock_.Now() + std::chrono::hours(24));
  EXPECT_EQ(cmd_err_.str(), "");
  // The same id again is refused.
  EXPECT_EQ(Run({"token", "create", kToken}), 1);
  EXPECT_EQ(status_.message(), "a token with id \"abcdef\" already exists");
}

// As pflag's, a list flag takes one argument: the token after it is the positional.
TEST_F(TokenCreateTest, TokenAfterAListFlagIsTheToken) {
  PutClusterConfiguration("");
  ASSERT_EQ(Run({"token", "create", "--usages", "signing,authentication", "--groups",
                 "system:bootstrappers:kubeadm:default-node-token", kToken}),
            0)
      << status_.message();
  EXPECT_EQ(Printed().bootstrap_token, kToken);
}

TEST_F(TokenCreateTest, ControlPlaneEndpointComesFirst) {
  PutClusterConfiguration("controlPlaneEndpoint: lb.example.com\n");
  ASSERT_EQ(Run({"token", "create", kToken}), 0) << status_.message();
  EXPECT_EQ(Printed().endpoints,
            (std::vector<std::string>{"lb.example.com:6443", "192.0.2.10:6443"}));
  PutClusterConfiguration("controlPlaneEndpoint: 192.0.2.10:6443\n");
  cmd_out_.str("");
  ASSERT_EQ(Run({"token", "create"}), 0) << status_.message();
  EXPECT_EQ(Printed().endpoints, std::vector<std::string>{"192.0.2.10:6443"});
}

TEST_F(TokenCreateTest, WorkerTokenWithoutKubeadmConfig) {
  ASSERT_EQ(Run({"token", "create", "--kubeconfig", "/etc/kubernetes/admin.conf", "--ttl", "0"}), 0)
      << status_.message();
  util::JoinToken token = Printed();
  EXPECT_EQ(token.endpoints, std::vector<std::string>{"192.0.2.10:6443"});
  EXPECT_FALSE(Secret(token.bootstrap_token.substr(0, 6))["data"].contains("expiration"));
}

TEST_F(TokenCreateTest, FlagsAreCheckedBeforeAnyCall) {
  EXPECT_EQ(Run({"token", "create", "--usages", "bogus"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("invalid bootstrap token usage string: bogus"));
  EXPECT_EQ(Run({"token", "create", "--groups", "admins"}), 1);
  EXPECT_EQ(Run({"token", "create", "not-a-token"}), 1);
  EXPECT_EQ(Run({"token", "create", "--ttl", "1d"}), 1);
  EXPECT_EQ(status_.code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(servers_.empty());
  EXPECT_EQ(Run({"token", "create", "--print-cloud-init", "--print-join-command"}), 3);
}

TEST_F(TokenCreateTest, TokenThatCannotJoinIsPrintedWithAWarning) {
  PutClusterConfiguration("");
  ASSERT_EQ(Run({"token", "create", kToken, "--ttl", "2h", "--description", "ci", "--usages",
                 "authentication", "--groups", "system:bootstrappers:ci"}),
            0)
      << status_.message();
  EXPECT_EQ(Printed().bootstrap_token, kToken);
  EXPECT_THAT(cmd_err_.str(), HasSubstr("warning: this token cannot join nodes: --usages"));
  auto token = phases::BootstrapTokenFromSecret(Secret("abcdef"));
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->description, "ci");
  EXPECT_EQ(token->usages, std::vector<std::string>{"authentication"});
  EXPECT_EQ(token->groups, std::vector<std::string>{"system:bootstrappers:ci"});
  EXPECT_EQ(token->expires, clock_.Now() + std::chrono::hours(2));
}

TEST_F(TokenCreateTest, ControlPlaneTokenUploadsTheCertificatesWithItsKey) {
  MakeSharedCerts();
  PutClusterConfiguration("controlPlaneEndpoint: 192.0.2.10:6443\n");
  ASSERT_EQ(Run({"token", "create", kToken, "--control-plane"}), 0) << status_.message();
  util::JoinToken token = Printed();
  ASSERT_EQ(token.certificate_key.size(), 64u);
  EXPECT_EQ(token.bootstrap_token, kToken);
  EXPECT_EQ(cmd_err_.str(),
            "[upload-certs] Storing the certificates in Secret \"kubeadm-certs\" in "
            "the \"kube-system\" Namespace\n");
  json certs = client_.Object(std::string(kSecrets) + "kubeadm-certs");
  auto files = phases::DecryptKubeadmCerts(certs, token.certificate_key);
  ASSERT_TRUE(files.has_value()) << files.status().message();
  EXPECT_EQ((*files)["ca.key"], *fs_.ReadFile("/etc/kubernetes/pki/ca.key"));
  EXPECT_EQ((*files)["etcd-ca.key"], *fs_.ReadFile("/etc/kubernetes/pki/etcd/ca.key"));
  // kubeadm-certs is owned by its own 2 h token; the join token's is kubeadm's init token.
  const std::string owner = certs["metadata"]["ownerReferences"][0]["name"];
  auto owner_token = phases::BootstrapTokenFromSecret(client_.Object(kSecrets + owner));
  ASSERT_TRUE(owner_token.has_value());
  EXPECT_NE(owner_token->id, "abcdef");
  EXPECT_EQ(owner_token->expires, std::chrono::time_point_cast<std::chrono::seconds>(clock_.Now()) +
                                      std::chrono::hours(2));
  auto join = phases::BootstrapTokenFromSecret(Secret("abcdef"));
  ASSERT_TRUE(join.has_value());
  EXPECT_THAT(join->usages, ::testing::UnorderedElementsAre("signing", "authentication"));
  EXPECT_EQ(join->groups,
            std::vector<std::string>{"system:bootstrappers:kubeadm:default-node-token"});
  EXPECT_EQ(join->expires, clock_.Now() + std::chrono::hours(24));
}

TEST_F(TokenCreateTest, GivenCertificateKeyIsUsedAndImpliesControlPlane) {
  MakeSharedCerts();
  PutClusterConfiguration("controlPlaneEndpoint: 192.0.2.10:6443\n");
  ASSERT_EQ(Run({"token", "create", kToken, "--certificate-key", kKey}), 0) << status_.message();
  EXPECT_EQ(Printed().certificate_key, kKey);
  EXPECT_TRUE(
      phases::DecryptKubeadmCerts(client_.Object(std::string(kSecrets) + "kubeadm-certs"), kKey)
          .has_value());
}

TEST_F(TokenCreateTest, ControlPlaneRefusalsWriteNothing) {
  MakeSharedCerts();
  PutClusterConfiguration("");
  EXPECT_EQ(Run({"token", "create", "--control-plane"}), 1);
  EXPECT_EQ(status_.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(status_.message(), HasSubstr("no controlPlaneEndpoint"));
  PutClusterConfiguration("controlPlaneEndpoint: 192.0.2.10:6443\n");
  EXPECT_EQ(Run({"token", "create", "--certificate-key", "xyz" + std::string(61, '0')}), 1);
  EXPECT_EQ(status_.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status_.message(), HasSubstr("--certificate-key: invalid value <redacted>"));
  EXPECT_THAT(status_.message(), Not(HasSubstr("xyz")));
  EXPECT_EQ(Run({"token", "create", "--control-plane", "--usages", "authentication"}), 1);
  EXPECT_THAT(status_.message(),
              HasSubstr("--usages: a token for joining nodes needs the usage \"signing\""));
  EXPECT_EQ(Run({"token", "create", "--control-plane", "--groups", "system:bootstrappers:x"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("--groups"));
  ASSERT_TRUE(fs_.Remove("/etc/kubernetes/pki/ca.key").ok());
  EXPECT_EQ(Run({"token", "create", "--control-plane"}), 1);
  EXPECT_THAT(status_.message(), HasSubstr("/etc/kubernetes/pki/ca.key is missing"));
  EXPECT_EQ(Writes(), 0u);
}

TEST_F(TokenCreateTest, ControlPlaneNeedsKubeadmConfig) {
  MakeSharedCerts();
  EXPECT_EQ(Run({"token", "create", "--control-plane"}), 1);
  EXPECT_EQ(status_.code(), StatusCode::kNotFound);
  EXPECT_THAT(status_.message(), HasSubstr("kubeadm-config"));
  EXPECT_EQ(Writes(), 0u);
}

// kubeadm's --print-join-command is one line (its join template without the "\\\n\t"
// continuations), so that scripts can take the first line of the output.
TEST_F(TokenCreateTest, PrintJoinCommandIsKubeadmsSingleLine) {
  ASSERT_EQ(Run({"token", "create", kToken, "--print-join-command"}), 0) << status_.message();
  EXPECT_EQ(cmd_out_.str(),
            "kkadm join 192.0.2.10:6443 --token abcdef.0123456789abcdef "
            "--discovery-token-ca-cert-hash " +
                Pins()[0] + " \n");
  MakeSharedCerts();
  PutClusterConfiguration("controlPlaneEndpoint: 192.0.2.10:6443\n");
  cmd_out_.str("");
  ASSERT_EQ(Run({"token", "create", "--print-join-command", "--certificate-key", kKey}), 0)
      << status_.message();
  const std::string control_plane = cmd_out_.str();
  EXPECT_THAT(control_plane, HasSubstr(" --discovery-token-ca-cert-hash " + Pins()[0] +
                                       " --control-plane --certificate-key " + kKey + "\n"));
  EXPECT_EQ(std::count(control_plane.begin(), control_plane.end(), '\n'), 1);
}

TEST_F(TokenCreateTest, PrintCloudInitRunsTheJoinWithTheClustersCriSocket) {
  PutClusterConfiguration("");
  PutControlPlaneNode("cp-1", "unix:///run/crio/crio.sock");
  ASSERT_EQ(Run({"token", "create", kToken, "--print-cloud-init"}), 0) << status_.message();
  const std::string text = cmd_out_.str();
  EXPECT_EQ(text.rfind("#cloud-config\n", 0), 0u);
  EXPECT_THAT(text, HasSubstr("# kkadm join: a worker node."));
  EXPECT_THAT(
      text, HasSubstr("expires at " + util::FormatRfc3339(clock_.Now() + std::chrono::hours(24))));
  auto doc = util::yaml::Read(text);
  ASSERT_TRUE(doc.has_value()) << doc.status().message();
  const json& command = (*doc)["runcmd"][0];
  ASSERT_EQ(command.size(), 7u) << command.dump();
  EXPECT_EQ(command[2], phases::CloudInitJoinScript());
  auto token = util::DecodeJoinToken(command[4].get<std::string>());
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->bootstrap_token, kToken);
  EXPECT_EQ(command[5], "unix:///run/crio/crio.sock");
  EXPECT_EQ(command[6], "300");
}

TEST_F(TokenCreateTest, PrintCloudInitForAControlPlaneNode) {
  MakeSharedCerts();
  PutClusterConfiguration("controlPlaneEndpoint: 192.0.2.10:6443\n");
  ASSERT_EQ(Run({"token", "create", "--print-cloud-init", "--control-plane", "--cri-socket",
                 "unix:///var/run/cri-dockerd.sock", "--ttl", "0"}),
            0)
      << status_.message();
  auto doc = util::yaml::Read(cmd_out_.str());
  ASSERT_TRUE(doc.has_value());
  const json& command = (*doc)["runcmd"][0];
  auto token = util::DecodeJoinToken(command[4].get<std::string>());
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->certificate_key.size(), 64u);
  EXPECT_EQ(command[5], "unix:///var/run/cri-dockerd.sock");
  EXPECT_THAT(cmd_out_.str(), HasSubstr("# kkadm join: a control-plane node."));
  EXPECT_THAT(cmd_out_.str(), HasSubstr("# The bootstrap token never expires."));
}

TEST_F(TokenCreateTest, PrintCloudInitRefusesABadSocketBeforeWriting) {
  PutClusterConfiguration("");
  EXPECT_EQ(Run({"token", "create", "--print-cloud-init", "--cri-socket", "npipe:////./pipe/x"}),
            1);
  EXPECT_EQ(status_.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status_.message(), HasSubstr("--cri-socket: invalid value \"npipe:////./pipe/x\""));
  EXPECT_EQ(Run({"token", "create", "--print-cloud-init", "--usages", "signing"}), 1);
  EXPECT_EQ(Writes(), 0u);
}

}  // namespace
}  // namespace kkadm::cmd
