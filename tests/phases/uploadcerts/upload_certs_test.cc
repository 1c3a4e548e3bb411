// Tests for upload-certs: the kubeadm-certs Secret decrypts to the exact files; owner token; RBAC.
#include "app/phases/uploadcerts/upload_certs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/bootstraptoken/token.h"
#include "app/phases/init/upload_certs_phase.h"
#include "app/util/crypto.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

const char kSecrets[] = "/api/v1/namespaces/kube-system/secrets/";

class UploadCertsTest : public testing::ClusterPhasesTest {
 protected:
  void SetUp() override {
    MakeCa("/etc/kubernetes/pki", "ca");
    MakeCa("/etc/kubernetes/pki", "front-proxy-ca");
    MakeCa("/etc/kubernetes/pki/etcd", "ca");
    const std::string pki = root_.path() + "/etc/kubernetes/pki";
    ASSERT_TRUE(testing::RunOpenssl(pki, "genrsa -out sa.key 2048"));
    ASSERT_TRUE(testing::RunOpenssl(pki, "rsa -in sa.key -pubout -out sa.pub"));
    data_.upload_certs = true;
  }
  std::string Node(const std::string& path) { return *fs_.ReadFile(path); }
};

TEST_F(UploadCertsTest, SkipsWithoutUploadCerts) {
  data_.upload_certs = false;
  ASSERT_TRUE(RunTree(NewUploadCertsPhase(data_)).ok());
  EXPECT_EQ(out_.str(), "[upload-certs] Skipping phase. Please see --upload-certs\n");
  EXPECT_TRUE(client_.calls().empty());
}

TEST_F(UploadCertsTest, SecretDecryptsToTheExactFiles) {
  ASSERT_TRUE(RunTree(NewUploadCertsPhase(data_)).ok());
  ASSERT_EQ(data_.certificate_key.size(), 64u);
  EXPECT_EQ(out_.str(),
            "[upload-certs] Storing the certificates in Secret \"kubeadm-certs\" in the "
            "\"kube-system\" Namespace\n[upload-certs] Using certificate key:\n" +
                data_.certificate_key + "\n");
  json secret = client_.Object(std::string(kSecrets) + "kubeadm-certs");
  std::vector<std::string> keys;
  for (auto it = secret["data"].begin(); it != secret["data"].end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"ca.crt", "ca.key", "etcd-ca.crt", "etcd-ca.key",
                                            "front-proxy-ca.crt", "front-proxy-ca.key", "sa.key",
                                            "sa.pub"}));
  auto files = DecryptKubeadmCerts(secret, data_.certificate_key);
  ASSERT_TRUE(files.has_value()) << files.error().message();
  const std::string pki = "/etc/kubernetes/pki/";
  EXPECT_EQ((*files)["ca.crt"], Node(pki + "ca.crt"));
  EXPECT_EQ((*files)["ca.key"], Node(pki + "ca.key"));
  EXPECT_EQ((*files)["front-proxy-ca.key"], Node(pki + "front-proxy-ca.key"));
  EXPECT_EQ((*files)["etcd-ca.crt"], Node(pki + "etcd/ca.crt"));
  EXPECT_EQ((*files)["etcd-ca.key"], Node(pki + "etcd/ca.key"));
  EXPECT_EQ((*files)["sa.pub"], Node(pki + "sa.pub"));
  EXPECT_EQ((*files)["sa.key"], Node(pki + "sa.key"));

  // Wrong key: authentication fails.
  auto other = util::CreateCertificateKey();
  EXPECT_FALSE(DecryptKubeadmCerts(secret, *other).has_value());

  // Owned by a 2 h bootstrap token's Secret.
  const json& owner = secret["metadata"]["ownerReferences"][0];
  EXPECT_EQ(owner["apiVersion"], "v1");
  EXPECT_EQ(owner["kind"], "Secret");
  EXPECT_EQ(owner["controller"], true);
  EXPECT_EQ(owner["blockOwnerDeletion"], true);
  json token_secret = client_.Object(std::string(kSecrets) + owner["name"].get<std::string>());
  auto token = BootstrapTokenFromSecret(token_secret);
  ASSERT_TRUE(token.has_value());
  EXPECT_EQ(token->description, "Proxy for managing TTL for the kubeadm-certs secret");
  EXPECT_EQ(token->expires, std::chrono::time_point_cast<std::chrono::seconds>(clock_.Now()) +
                                std::chrono::hours(2));

  const std::string rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/kube-system/";
  EXPECT_EQ(
      client_.Object(rbac + "roles/kubeadm:kubeadm-certs")["rules"],
      json::parse(
          R"([{"verbs":["get"],"apiGroups":[""],"resources":["secrets"],"resourceNames":["kubeadm-certs"]}])"));
  EXPECT_EQ(client_.Object(rbac + "rolebindings/kubeadm:kubeadm-certs")["subjects"][0]["name"],
            "system:bootstrappers:kubeadm:default-node-token");
}

TEST_F(UploadCertsTest, UsesTheGivenKeyAndHonoursSkipPrint) {
  data_.cfg.certificate_key = std::string(64, 'a');
  data_.skip_certificate_key_print = true;
  ASSERT_TRUE(RunTree(NewUploadCertsPhase(data_)).ok());
  EXPECT_EQ(data_.certificate_key, std::string(64, 'a'));
  EXPECT_THAT(out_.str(), ::testing::Not(HasSubstr("Using certificate key")));
  EXPECT_THAT(out_.str(), ::testing::Not(HasSubstr(std::string(64, 'a'))));
  EXPECT_TRUE(DecryptKubeadmCerts(client_.Object(std::string(kSecrets) + "kubeadm-certs"),
                                  std::string(64, 'a'))
                  .has_value());
}

TEST_F(UploadCertsTest, ExternalEtcdFilesAreShared) {
  data_.cfg.cluster.etcd.local.reset();
  data_.cfg.cluster.etcd.external = config::ExternalEtcd{{"https://10.0.0.5:2379"},
                                                         "/etc/kubernetes/pki/etcd/ca.crt",
                                                         "/ext/client.crt",
                                                         "/ext/client.key"};
  ASSERT_TRUE(fs_.WriteFile("/ext/client.crt", "CERT", 0644).ok());
  ASSERT_TRUE(fs_.WriteFile("/ext/client.key", "KEY", 0600).ok());
  ASSERT_TRUE(RunTree(NewUploadCertsPhase(data_)).ok());
  auto files = DecryptKubeadmCerts(client_.Object(std::string(kSecrets) + "kubeadm-certs"),
                                   data_.certificate_key);
  ASSERT_TRUE(files.has_value());
  EXPECT_EQ((*files)["external-etcd.crt"], "CERT");
  EXPECT_EQ((*files)["external-etcd.key"], "KEY");
  EXPECT_EQ((*files)["external-etcd-ca.crt"], Node("/etc/kubernetes/pki/etcd/ca.crt"));
  EXPECT_EQ(files->count("etcd-ca.key"), 0u);
}

TEST_F(UploadCertsTest, MalformedKeyFails) {
  data_.cfg.certificate_key = "xyz";
  Status s = RunTree(NewUploadCertsPhase(data_));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("error uploading certs"));
}

}  // namespace
}  // namespace kkadm::phases
