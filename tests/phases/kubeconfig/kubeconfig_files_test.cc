#include "app/phases/kubeconfig/kubeconfig_files.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/phases/certs/certs.h"
#include "app/util/kubeconfig.h"
#include "app/util/pki/pki_files.h"
#include "tests/phases/certs/test_node.h"
#include "tests/util/pki/run_command.h"

namespace kkadm::phases::kubeconfig {
namespace {

KubeconfigEnv Env(testing::TestNode& node) {
  return KubeconfigEnv{node.data.cfg, node.fs,           node.printer,
                       node.clock,    "/etc/kubernetes", nullptr};
}

void MakePki(testing::TestNode& node) {
  certs::CertsEnv env{node.data.cfg, node.fs, node.printer, node.clock, false, nullptr};
  ASSERT_TRUE(certs::CreatePKIAssets(env).ok());
  node.TakeOutput();
}

Status CreateAll(KubeconfigEnv& env) {
  for (const auto& f : KubeconfigFileNames()) KKADM_RETURN_IF_ERROR(CreateKubeconfigFile(f, env));
  return Status();
}

util::Kubeconfig Load(testing::TestNode& node, const std::string& file) {
  return *util::DecodeKubeconfig(node.Read("/etc/kubernetes/" + file));
}

TEST(KubeconfigFilesTest, Endpoints) {
  config::InitConfiguration cfg;
  cfg.local_api_endpoint.advertise_address = "192.0.2.10";
  EXPECT_EQ(*LocalEndpoint(cfg), "https://192.0.2.10:6443");
  EXPECT_EQ(*ControlPlaneEndpoint(cfg), "https://192.0.2.10:6443");
  cfg.cluster.control_plane_endpoint = "cp.example.com";
  EXPECT_EQ(*ControlPlaneEndpoint(cfg), "https://cp.example.com:6443");
  cfg.cluster.control_plane_endpoint = "cp.example.com:8443";
  EXPECT_EQ(*ControlPlaneEndpoint(cfg), "https://cp.example.com:8443");
  cfg.cluster.control_plane_endpoint = "[fd00::1]:443";
  EXPECT_EQ(*ControlPlaneEndpoint(cfg), "https://[fd00::1]:443");
  cfg.local_api_endpoint.advertise_address = "fd00::10";
  cfg.local_api_endpoint.bind_port = 7443;
  EXPECT_EQ(*LocalEndpoint(cfg), "https://[fd00::10]:7443");
  cfg.cluster.control_plane_endpoint = "fd00::9";  // a bare IPv6 address gets bindPort
  EXPECT_EQ(*ControlPlaneEndpoint(cfg), "https://[fd00::9]:7443");
  cfg.cluster.control_plane_endpoint = "bad_host";
  EXPECT_FALSE(ControlPlaneEndpoint(cfg).has_value());
  cfg.local_api_endpoint.advertise_address = "nope";
  EXPECT_FALSE(LocalEndpoint(cfg).has_value());
}

TEST(KubeconfigFilesTest, Specs) {
  config::InitConfiguration cfg;
  cfg.node_registration.name = "node-1";
  cfg.local_api_endpoint.advertise_address = "192.0.2.10";
  cfg.cluster.control_plane_endpoint = "cp.example.com";
  auto admin = GetKubeconfigSpec(kAdminConf, cfg);
  EXPECT_EQ(admin->client_name, "kubernetes-admin");
  EXPECT_EQ(admin->organizations, std::vector<std::string>{"kubeadm:cluster-admins"});
  EXPECT_EQ(admin->server, "https://cp.example.com:6443");
  auto super = GetKubeconfigSpec(kSuperAdminConf, cfg);
  EXPECT_EQ(super->client_name, "kubernetes-super-admin");
  EXPECT_EQ(super->organizations, std::vector<std::string>{"system:masters"});
  auto kubelet = GetKubeconfigSpec(kKubeletConf, cfg);
  EXPECT_EQ(kubelet->client_name, "system:node:node-1");
  EXPECT_EQ(kubelet->organizations, std::vector<std::string>{"system:nodes"});
  EXPECT_EQ(kubelet->server, "https://cp.example.com:6443");
  auto cm = GetKubeconfigSpec(kControllerManagerConf, cfg);
  EXPECT_EQ(cm->client_name, "system:kube-controller-manager");
  EXPECT_TRUE(cm->organizations.empty());
  EXPECT_EQ(cm->server, "https://192.0.2.10:6443");
  EXPECT_EQ(GetKubeconfigSpec(kSchedulerConf, cfg)->client_name, "system:kube-scheduler");
  EXPECT_EQ(GetKubeconfigSpec(kSchedulerConf, cfg)->server, "https://192.0.2.10:6443");
  cfg.cluster.feature_gates["ControlPlaneKubeletLocalMode"] = true;
  EXPECT_EQ(GetKubeconfigSpec(kKubeletConf, cfg)->server, "https://192.0.2.10:6443");
  EXPECT_FALSE(GetKubeconfigSpec("other.conf", cfg).has_value());
}

TEST(KubeconfigFilesTest, WritesFilesWithClientCertificates) {
  testing::TestNode node;
  MakePki(node);
  auto env = Env(node);
  ASSERT_TRUE(CreateAll(env).ok());
  EXPECT_EQ(node.TakeOutput(),
            "[kubeconfig] Writing \"admin.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"super-admin.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"kubelet.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"controller-manager.conf\" kubeconfig file\n"
            "[kubeconfig] Writing \"scheduler.conf\" kubeconfig file\n");
  auto ca = *util::pki::LoadCert(node.fs, "/etc/kubernetes/pki/ca.crt");
  for (const auto& f : KubeconfigFileNames()) {
    EXPECT_EQ(node.fs.Stat("/etc/kubernetes/" + f)->mode, 0600u) << f;
    util::Kubeconfig k = Load(node, f);
    auto spec = *GetKubeconfigSpec(f, node.data.cfg);
    ASSERT_NE(k.CurrentCluster(), nullptr);
    EXPECT_EQ(k.clusters[0].name, "kubernetes");
    EXPECT_EQ(k.current_context, spec.client_name + "@kubernetes");
    EXPECT_EQ(k.CurrentCluster()->server, "https://192.0.2.10:6443");
    EXPECT_EQ(k.CurrentCluster()->certificate_authority_data, ca.ToPem());
    auto cert = util::pki::Certificate::ParsePem(k.CurrentUser()->client_certificate_data);
    auto key = util::pki::PrivateKey::ParsePem(k.CurrentUser()->client_key_data);
    ASSERT_TRUE(cert.has_value() && key.has_value());
    EXPECT_EQ(cert->CommonName(), spec.client_name);
    EXPECT_EQ(cert->Organizations(), spec.organizations);
    EXPECT_EQ(cert->ExtKeyUsages(),
              std::vector<util::pki::ExtKeyUsage>{util::pki::ExtKeyUsage::kClientAuth});
    EXPECT_TRUE(cert->MatchesKey(*key));
    EXPECT_TRUE(cert->VerifyChain({}, ca, node.clock.Now()).ok());
    EXPECT_EQ(cert->NotAfter(), node.clock.Now() + std::chrono::hours(8760));
  }
}

TEST(KubeconfigFilesTest, ReusesExistingFilesAndRefusesWrongCa) {
  testing::TestNode node;
  MakePki(node);
  auto env = Env(node);
  ASSERT_TRUE(CreateAll(env).ok());
  std::string admin = node.Read("/etc/kubernetes/admin.conf");
  node.TakeOutput();
  // A different server only warns.
  node.data.cfg.cluster.control_plane_endpoint = "cp.example.com";
  ASSERT_TRUE(CreateAll(env).ok());
  EXPECT_EQ(node.Read("/etc/kubernetes/admin.conf"), admin);
  EXPECT_EQ(
      node.TakeOutput(),
      "[kubeconfig] Using existing kubeconfig file: \"/etc/kubernetes/admin.conf\"\n"
      "[kubeconfig] Using existing kubeconfig file: \"/etc/kubernetes/super-admin.conf\"\n"
      "[kubeconfig] Using existing kubeconfig file: \"/etc/kubernetes/kubelet.conf\"\n"
      "[kubeconfig] Using existing kubeconfig file: \"/etc/kubernetes/controller-manager.conf\"\n"
      "[kubeconfig] Using existing kubeconfig file: \"/etc/kubernetes/scheduler.conf\"\n");
  // Extra whitespace around the embedded CA is tolerated.
  util::Kubeconfig k = Load(node, "scheduler.conf");
  k.clusters[0].certificate_authority_data += "\n\n";
  ASSERT_TRUE(
      node.fs.WriteFile("/etc/kubernetes/scheduler.conf", util::EncodeKubeconfig(k), 0600).ok());
  EXPECT_TRUE(CreateKubeconfigFile(kSchedulerConf, env).ok());
  // Another CA is an error and the file stays.
  k.clusters[0].certificate_authority_data = node.Read("/etc/kubernetes/pki/front-proxy-ca.crt");
  std::string wrong = util::EncodeKubeconfig(k);
  ASSERT_TRUE(node.fs.WriteFile("/etc/kubernetes/scheduler.conf", wrong, 0600).ok());
  Status s = CreateKubeconfigFile(kSchedulerConf, env);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            "a kubeconfig file \"/etc/kubernetes/scheduler.conf\" exists already but has got the "
            "wrong CA cert");
  EXPECT_EQ(node.Read("/etc/kubernetes/scheduler.conf"), wrong);
  ASSERT_TRUE(node.fs.WriteFile("/etc/kubernetes/kubelet.conf", "::: not yaml", 0600).ok());
  EXPECT_FALSE(CreateKubeconfigFile(kKubeletConf, env).ok());
}

TEST(KubeconfigFilesTest, NeedsTheCa) {
  testing::TestNode node;
  auto env = Env(node);
  Status s = CreateKubeconfigFile(kAdminConf, env);
  EXPECT_EQ(s.message().rfind("couldn't create a kubeconfig; the CA files couldn't be loaded", 0),
            0u)
      << s.message();
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/admin.conf"));
}

TEST(KubeconfigFilesTest, ExternalCaOnlyValidates) {
  testing::TestNode node;
  MakePki(node);
  auto env = Env(node);
  ASSERT_TRUE(CreateAll(env).ok());
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/pki/ca.key").ok());
  node.TakeOutput();
  for (const auto& f : KubeconfigFileNames())
    EXPECT_TRUE(ValidateKubeconfigForExternalCA(f, env).ok()) << f;
  EXPECT_EQ(
      node.TakeOutput().find("[kubeconfig] External CA mode: Using user provided admin.conf\n"),
      0u);
  ASSERT_TRUE(node.fs.Remove("/etc/kubernetes/kubelet.conf").ok());
  Status s = ValidateKubeconfigForExternalCA(kKubeletConf, env);
  EXPECT_EQ(s.message().rfind("the kubelet.conf file does not exists or it is not valid", 0), 0u)
      << s.message();
  EXPECT_FALSE(node.fs.Exists("/etc/kubernetes/kubelet.conf"));
  // A client certificate from another CA is refused even though the embedded CA matches.
  util::Kubeconfig k = Load(node, "admin.conf");
  k.users[0].client_certificate_data = node.Read("/etc/kubernetes/pki/front-proxy-client.crt");
  ASSERT_TRUE(
      node.fs.WriteFile("/etc/kubernetes/admin.conf", util::EncodeKubeconfig(k), 0600).ok());
  EXPECT_NE(ValidateKubeconfigForExternalCA(kAdminConf, env).message().find("not signed by the CA"),
            std::string::npos);
}

// kubectl reads every file, and openssl verifies each embedded client certificate against ca.crt.
TEST(KubeconfigFilesTest, KubectlAndOpenSslAcceptThem) {
  testing::TestNode node;
  MakePki(node);
  util::pki::KeyPool pool;
  auto env = Env(node);
  env.keys = &pool;
  PregenerateKeys(env);
  ASSERT_TRUE(CreateAll(env).ok());
  for (const auto& f : KubeconfigFileNames()) {
    std::string path = node.HostPath("/etc/kubernetes/" + f);
    auto r = testing::RunCommand("kubectl config view --kubeconfig " + path + " --raw -o json");
    ASSERT_EQ(r.exit_code, 0) << f;
    auto json = nlohmann::json::parse(r.out);
    auto spec = *GetKubeconfigSpec(f, node.data.cfg);
    EXPECT_EQ(json["current-context"], spec.client_name + "@kubernetes");
    EXPECT_EQ(json["contexts"][0]["context"]["user"], spec.client_name);
    EXPECT_EQ(json["clusters"][0]["cluster"]["server"], spec.server);
    std::string cert_path = path + ".client.crt";
    auto cert =
        util::Base64Decode(json["users"][0]["user"]["client-certificate-data"].get<std::string>());
    ASSERT_TRUE(node.fs.WriteFile("/etc/kubernetes/" + f + ".client.crt", *cert, 0644).ok());
    auto v = testing::RunCommand("openssl verify -CAfile " +
                                 node.HostPath("/etc/kubernetes/pki/ca.crt") + " " + cert_path +
                                 " 2>&1");
    EXPECT_EQ(v.exit_code, 0) << v.out;
    auto subject =
        testing::RunCommand("openssl x509 -noout -subject -nameopt RFC2253 -in " + cert_path);
    std::string want = "subject=CN=" + spec.client_name;
    for (const auto& o : spec.organizations) want += ",O=" + o;
    EXPECT_EQ(subject.out, want + "\n") << f;
  }
}

}  // namespace
}  // namespace kkadm::phases::kubeconfig
