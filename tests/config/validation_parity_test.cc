// Validation parity with kubeadm 1.32's validation.go: the accept/refuse tables of its
// validation_test.go (image repository, cert SANs, feature gates, discovery file) and kkadm's
// wording of each refusal.
#include <gtest/gtest.h>

#include "app/config/defaults.h"
#include "app/config/image_repository.h"
#include "app/config/validate.h"
#include "tests/fakes/fake_machine.h"

namespace kkadm::config {
namespace {

ClusterConfiguration DefaultedCluster() {
  ClusterConfiguration cfg;
  cfg.kubernetes_version = "v1.32.0";
  SetClusterDefaults(cfg);
  return cfg;
}

Status Validate(const ClusterConfiguration& cfg, std::vector<std::string>* warnings = nullptr) {
  std::vector<std::string> ignored;
  return ValidateClusterConfiguration(cfg, "kubeadm.yaml", warnings ? *warnings : ignored);
}

// kubeadm's TestValidateImageRepository, plus the grammar's other corners.
TEST(ImageRepositoryTest, AcceptsWhatKubeadmAccepts) {
  for (const char* repository :
       {"a", "a.b.c", "a.b.c/repo", "a:5000", "a.b.c:5000", "a.b.c:5000/repo", "a/b/c",
        "127.0.0.1:5000/repo", "registry.k8s.io", "REGISTRY.Example.com/mirror",
        "[fd00::1]:5000/k8s", "[::1]", "localhost/a__b/c-d--e/f.g",
        "my-registry.local:443/team_a/sub"}) {
    EXPECT_EQ(ImageRepositoryProblem(repository), std::nullopt) << repository;
  }
}

TEST(ImageRepositoryTest, RefusesWhatKubeadmRefuses) {
  for (const char* repository :
       {"", "a.b/c\n\t\t\ts", " a.b.c", "a.b c", "a.b.c:5000/", "https://a.b.c:5000", "a//b/c",
        "a.b.c:5000/test:1.0", "registry.k8s.io/Mirror", "registry.k8s.io:v1", "/registry.k8s.io",
        "registry.k8s.io/a@sha256:0123", "-registry.io/x", "a/b_", "a/.b", "a/b___c", "[]:5000/x",
        "[fd00::g]/x", "registry.io:/x"}) {
    EXPECT_NE(ImageRepositoryProblem(repository), std::nullopt) << repository;
  }
}

TEST(ImageRepositoryTest, SaysWhatIsWrong) {
  auto problem = [](const char* repository) {
    return ImageRepositoryProblem(repository).value_or("");
  };
  EXPECT_EQ(problem("https://registry.example.com"),
            "invalid image repository format: must not start with a scheme such as \"https://\"");
  EXPECT_EQ(problem("registry.example.com/k8s/"),
            "invalid image repository format: must not end with \"/\"");
  EXPECT_EQ(
      problem("registry.example.com//k8s"),
      "invalid image repository format: must not contain an empty path component (\"//\" or a "
      "leading \"/\")");
  EXPECT_EQ(
      problem("registry.example.com/k8s:v1.32"),
      "invalid image repository format: must not contain a tag (\"k8s:v1.32\"); give the tag in "
      "imageTag");
  EXPECT_EQ(problem("registry example.com"),
            "invalid image repository format: must not contain spaces or control characters");
  EXPECT_EQ(problem("registry.example.com/K8s"),
            "invalid image repository format: path component \"K8s\" must be lower case");
}

TEST(ClusterValidationTest, ChecksEveryImageRepository) {
  ClusterConfiguration cfg = DefaultedCluster();
  ASSERT_TRUE(Validate(cfg).ok()) << Validate(cfg).message();
  cfg.image_repository = "registry.example.com/k8s/";
  EXPECT_EQ(
      Validate(cfg).message(),
      "kubeadm.yaml: imageRepository: invalid value \"registry.example.com/k8s/\": invalid image "
      "repository format: must not end with \"/\"");
  cfg = DefaultedCluster();
  cfg.dns.image_repository = "https://mirror.example.com";
  EXPECT_EQ(
      Validate(cfg).message(),
      "kubeadm.yaml: dns.imageRepository: invalid value \"https://mirror.example.com\": invalid "
      "image repository format: must not start with a scheme such as \"https://\"");
  cfg = DefaultedCluster();
  cfg.etcd.local->image_repository = "quay.io/coreos/etcd:v3.5";
  EXPECT_EQ(
      Validate(cfg).message(),
      "kubeadm.yaml: etcd.local.imageRepository: invalid value \"quay.io/coreos/etcd:v3.5\": "
      "invalid image repository format: must not contain a tag (\"etcd:v3.5\"); give the tag in "
      "imageTag");
  cfg = DefaultedCluster();
  cfg.dns.image_repository = "mirror.example.com:5000/coredns";
  cfg.etcd.local->image_repository = "[fd00::1]:5000";
  EXPECT_TRUE(Validate(cfg).ok()) << Validate(cfg).message();
}

// kubeadm's TestValidateFeatureGates: an unknown gate is an error, whatever its value.
TEST(ClusterValidationTest, RefusesUnknownFeatureGates) {
  for (bool value : {true, false}) {
    ClusterConfiguration cfg = DefaultedCluster();
    cfg.feature_gates["Unknown"] = value;
    EXPECT_EQ(
        Validate(cfg).message(),
        "kubeadm.yaml: featureGates: invalid value \"Unknown\": not a valid feature gate; known "
        "gates: ControlPlaneKubeletLocalMode, EtcdLearnerMode, NodeLocalCRISocket, "
        "PublicKeysECDSA, RootlessControlPlane, WaitForAllControlPlaneComponents");
  }
}

TEST(ClusterValidationTest, AcceptsKubeadm132FeatureGates) {
  ClusterConfiguration cfg = DefaultedCluster();
  for (const char* gate : {"ControlPlaneKubeletLocalMode", "EtcdLearnerMode", "NodeLocalCRISocket",
                           "RootlessControlPlane", "WaitForAllControlPlaneComponents"}) {
    cfg.feature_gates[gate] = false;
  }
  std::vector<std::string> warnings;
  EXPECT_TRUE(Validate(cfg, &warnings).ok()) << Validate(cfg).message();
  EXPECT_TRUE(warnings.empty());
  cfg.feature_gates["PublicKeysECDSA"] = true;  // deprecated in 1.31, still accepted
  EXPECT_TRUE(Validate(cfg, &warnings).ok());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(
      warnings[0],
      "kubeadm.yaml: featureGates.PublicKeysECDSA: the feature gate is deprecated and will be "
      "removed; use encryptionAlgorithm (v1beta4)");
}

// kubeadm's LowercaseSANs runs before validation: EXAMPLE.k8s.io is accepted, as example.k8s.io.
TEST(ClusterValidationTest, LowerCasesAPIServerCertSANs) {
  ClusterConfiguration cfg;
  cfg.kubernetes_version = "v1.32.0";
  cfg.api_server.cert_sans = {"EXAMPLE.k8s.io", "10.100.0.1", "ANOTHEREXAMPLE.k8s.io",
                              "*.Wild.Example"};
  cfg.etcd.local = LocalEtcd{};
  cfg.etcd.local->server_cert_sans = {"Etcd.Example"};
  SetClusterDefaults(cfg);
  EXPECT_EQ(cfg.api_server.cert_sans,
            (std::vector<std::string>{"example.k8s.io", "10.100.0.1", "anotherexample.k8s.io",
                                      "*.wild.example"}));
  // kubeadm lower-cases only the API server's SANs: an upper-case etcd SAN is still refused.
  EXPECT_EQ(
      Validate(cfg).message(),
      "kubeadm.yaml: etcd.local.serverCertSANs[0]: invalid value \"Etcd.Example\": must be a valid "
      "IP address, DNS-1123 subdomain or wildcard DNS name");
  cfg.etcd.local->server_cert_sans.clear();
  EXPECT_TRUE(Validate(cfg).ok()) << Validate(cfg).message();
}

// One home for the address and name rules (util/net_rules.h): validation and the certificates
// read SANs alike, as apimachinery does: a label may exceed 63 characters (the certificates' copy
// dropped such a SAN after validation had accepted it), and a wildcard name counts its "*." in
// the 253 (validation's copy did not).
TEST(ClusterValidationTest, CertSANsAsApimachinery) {
  ClusterConfiguration cfg = DefaultedCluster();
  cfg.api_server.cert_sans = {std::string(64, 'a') + ".example.com",
                              "*." + std::string(125, 'a') + "." + std::string(125, 'b')};
  EXPECT_TRUE(Validate(cfg).ok()) << Validate(cfg).message();
  const std::string too_long = "*.c" + std::string(125, 'a') + "." + std::string(125, 'b');
  cfg.api_server.cert_sans = {too_long};
  EXPECT_EQ(Validate(cfg).message(),
            "kubeadm.yaml: apiServer.certSANs[0]: invalid value \"" + too_long +
                "\": must be a valid IP address, DNS-1123 subdomain or wildcard DNS name");
}

// kubeadm's ValidateHostPort is ParseHostPort: net.SplitHostPort, else the whole text is the
// host. "[::1]" has no port, so its host is "[::1]", not an address; "cp:" splits with an empty
// port. kkadm's copy of the rule read both the other way.
TEST(ClusterValidationTest, ControlPlaneEndpointAsParseHostPort) {
  ClusterConfiguration cfg = DefaultedCluster();
  for (const char* ok : {"cp.example.com", "cp.example.com:6443", "cp.example.com:", "cp:06443",
                         "10.0.0.1", "[fd00::1]:6443", "fd00::1"}) {
    cfg.control_plane_endpoint = ok;
    EXPECT_TRUE(Validate(cfg).ok()) << ok << ": " << Validate(cfg).message();
  }
  cfg.control_plane_endpoint = "[fd00::1]";
  EXPECT_EQ(Validate(cfg).message(),
            "kubeadm.yaml: controlPlaneEndpoint: invalid value \"[fd00::1]\": host must be a valid "
            "IP address or DNS-1123 subdomain");
}

// kubeadm's ValidateIPFromString is netutils.ParseIPSloppy: leading zeros are decimal.
TEST(InitValidationTest, AdvertiseAddressAsParseIPSloppy) {
  std::vector<std::string> warnings;
  for (const char* ok : {"010.0.0.1", "10.0.0.1", "fd00::1"}) {
    Checker check("kubeadm.yaml", warnings);
    ValidateAPIEndpoint(APIEndpoint{.advertise_address = ok, .bind_port = 6443}, "localAPIEndpoint",
                        check);
    EXPECT_TRUE(check.ok()) << ok << ": " << check.status().message();
  }
  for (const char* bad : {"256.0.0.1", "0.0.0.0", "::", "::ffff:0.0.0.0"}) {
    Checker check("kubeadm.yaml", warnings);
    ValidateAPIEndpoint(APIEndpoint{.advertise_address = bad, .bind_port = 6443},
                        "localAPIEndpoint", check);
    EXPECT_FALSE(check.ok()) << bad;
  }
}

Status ValidateDiscoveryFile(const std::string& path, const testing::FakeMachine& machine) {
  JoinConfiguration cfg;
  cfg.node_registration.name = "node";
  cfg.node_registration.cri_socket = "unix:///c";
  cfg.node_registration.image_pull_policy = "IfNotPresent";
  cfg.ca_cert_path = "/etc/kubernetes/pki/ca.crt";
  cfg.discovery.file = FileDiscovery{.kube_config_path = path};
  std::vector<std::string> warnings;
  return ValidateJoinConfiguration(cfg, "join.yaml", machine, warnings);
}

// kubeadm's TestValidateDiscoveryKubeConfigPath, with the file it creates on the fake machine.
TEST(JoinValidationTest, DiscoveryFileExistsOrIsAnHttpsURL) {
  testing::FakeMachine machine;
  machine.paths = {"/tmp/test_discovery_file", "relative.conf"};
  for (const char* ok : {"/tmp/test_discovery_file", "relative.conf", "https://url/file.conf",
                         "https://[fd00::1]:6443/cluster-info.yaml", "https://example.com"}) {
    EXPECT_TRUE(ValidateDiscoveryFile(ok, machine).ok())
        << ok << ": " << ValidateDiscoveryFile(ok, machine).message();
  }
  const std::string prefix = "join.yaml: discovery.file.kubeConfigPath: invalid value ";
  EXPECT_EQ(ValidateDiscoveryFile("foo", machine).message(),
            prefix +
                "\"foo\": no such file on this machine: give an existing kubeconfig file or an "
                "https:// URL");
  EXPECT_EQ(
      ValidateDiscoveryFile("/foo/bar/file_which_i_believe_not_existing.conf", machine).message(),
      prefix +
          "\"/foo/bar/file_which_i_believe_not_existing.conf\": no such file on this machine: "
          "give an existing kubeconfig file or an https:// URL");
  EXPECT_EQ(ValidateDiscoveryFile("http://[::1]a", machine).message(),
            prefix + "\"http://[::1]a\": if a URL is used, the scheme must be https");
  EXPECT_EQ(ValidateDiscoveryFile("http://url/file.conf", machine).message(),
            prefix + "\"http://url/file.conf\": if a URL is used, the scheme must be https");
  EXPECT_EQ(ValidateDiscoveryFile("https://u r l/file.conf", machine).message(),
            prefix +
                "\"https://u r l/file.conf\": not a well-formed https URL: invalid character in "
                "host \"u r l\"");
  EXPECT_EQ(
      ValidateDiscoveryFile("https://host:port/x", machine).message(),
      prefix + "\"https://host:port/x\": not a well-formed https URL: the port must be a number");
  EXPECT_EQ(ValidateDiscoveryFile("https:///x", machine).message(),
            prefix + "\"https:///x\": not a well-formed https URL: the host is missing");
  EXPECT_EQ(ValidateDiscoveryFile(":x", machine).message(),
            prefix + "\":x\": missing protocol scheme");
}

}  // namespace
}  // namespace kkadm::config
