// Table of invalid configurations: each must fail with one InvalidArgument line naming the file,
// the document, the field path and the value.
#include <gtest/gtest.h>

#include "app/config/make_config.h"
#include "tests/config/testdata.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_release_versions.h"

namespace kkadm::config {
namespace {

// stable-1 is kkadm's own version: these tests are not about version labels.
using kkadm::testing::BuiltInVersions;

constexpr const char* kInit4 = "apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n";
constexpr const char* kInit3 = "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\n";
constexpr const char* kCluster4 =
    "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n";
constexpr const char* kCluster3 =
    "apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n";
constexpr const char* kInitDoc = "kubeadm.yaml: InitConfiguration (document 1): ";
constexpr const char* kClusterDoc = "kubeadm.yaml: ClusterConfiguration (document 2): ";

struct Case {
  std::string name;
  std::string yaml;
  std::string message;
};

std::string Init(const std::string& body) { return kInit4 + body; }
std::string Init3(const std::string& body) { return kInit3 + body; }
std::string Cluster(const std::string& body) {
  return std::string(kInit4) + "---\n" + kCluster4 + body;
}
std::string Cluster3(const std::string& body) {
  return std::string(kInit3) + "---\n" + kCluster3 + body;
}
std::string InitErr(const std::string& rest) { return kInitDoc + rest; }
std::string ClusterErr(const std::string& rest) { return kClusterDoc + rest; }

// The networking section: subnets and the DNS domain.
std::vector<Case> NetworkingCases() {
  return {
      {"ServiceSubnetPrefix", Cluster("networking:\n  serviceSubnet: 10.96.0.0/33\n"),
       ClusterErr(
           "networking.serviceSubnet: invalid value \"10.96.0.0/33\": must be a valid CIDR")},
      {"ServiceSubnetTooLarge", Cluster("networking:\n  serviceSubnet: 10.0.0.0/8\n"),
       ClusterErr("networking.serviceSubnet: invalid value \"10.0.0.0/8\": the service subnet is "
                  "too large: it may have at most 20 host bits (/12)")},
      {"ServiceSubnetTooSmall", Cluster("networking:\n  serviceSubnet: 10.96.0.0/29\n"),
       ClusterErr("networking.serviceSubnet: invalid value \"10.96.0.0/29\": the service subnet is "
                  "too small: it must hold at least 10 addresses")},
      {"ServiceSubnetV6TooLarge", Cluster("networking:\n  serviceSubnet: fd00::/64\n"),
       ClusterErr("networking.serviceSubnet: invalid value \"fd00::/64\": the IPv6 service subnet "
                  "is too large: the mask must be /108 or longer")},
      {"DualStackSameFamily", Cluster("networking:\n  serviceSubnet: 10.96.0.0/16,10.97.0.0/16\n"),
       ClusterErr(
           "networking.serviceSubnet: invalid value \"10.96.0.0/16,10.97.0.0/16\": expected one "
           "(IPv4 or IPv6) CIDR or two CIDRs from each family for dual-stack networking")},
      {"PodSubnetBad", Cluster("networking:\n  podSubnet: 10.244.0.0\n"),
       ClusterErr("networking.podSubnet: invalid value \"10.244.0.0\": must be a valid CIDR")},
      {"PodSubnetTooSmall", Cluster("networking:\n  podSubnet: 10.244.0.0/28\n"),
       ClusterErr("networking.podSubnet: invalid value \"10.244.0.0/28\": the pod subnet mask must "
                  "not be longer than the node CIDR mask /24")},
      {"PodSubnetNodeMaskFlag",
       Cluster("networking:\n  podSubnet: 10.244.0.0/16\ncontrollerManager:\n  extraArgs:\n  - "
               "name: node-cidr-mask-size-ipv4\n    value: \"12\"\n"),
       ClusterErr("networking.podSubnet: invalid value \"10.244.0.0/16\": the pod subnet mask must "
                  "not be longer than the node CIDR mask /12")},
      {"DnsDomain", Cluster("networking:\n  dnsDomain: Cluster_Local\n"),
       ClusterErr(
           "networking.dnsDomain: invalid value \"Cluster_Local\": must be a DNS-1123 subdomain")},
  };
}

// The rest of ClusterConfiguration: version, endpoint, SANs, algorithm, feature gates.
std::vector<Case> ClusterCases() {
  return {
      {"OldVersion", Cluster("kubernetesVersion: v1.28.3\n"),
       ClusterErr("kubernetesVersion: invalid value \"v1.28.3\": this version of kkadm only "
                  "supports deploying clusters with the control plane version >= v1.29.0")},
      {"BadVersion", Cluster("kubernetesVersion: banana\n"),
       ClusterErr("kubernetesVersion: invalid value \"banana\": must be a semantic version such as "
                  "v1.32.0")},
      {"ControlPlaneEndpointPort", Cluster("controlPlaneEndpoint: cp.example.com:99999\n"),
       ClusterErr("controlPlaneEndpoint: invalid value \"cp.example.com:99999\": port must be a "
                  "number between 1 and 65535")},
      {"ControlPlaneEndpointHost", Cluster("controlPlaneEndpoint: bad_host:6443\n"),
       ClusterErr("controlPlaneEndpoint: invalid value \"bad_host:6443\": host must be a valid IP "
                  "address or DNS-1123 subdomain")},
      {"CertSAN", Cluster("apiServer:\n  certSANs: [ok.example.com, \"bad san\"]\n"),
       ClusterErr("apiServer.certSANs[1]: invalid value \"bad san\": must be a valid IP address, "
                  "DNS-1123 subdomain or wildcard DNS name")},
      {"EncryptionAlgorithm", Cluster("encryptionAlgorithm: DSA-1024\n"),
       ClusterErr("encryptionAlgorithm: invalid value \"DSA-1024\": must be one of RSA-2048, "
                  "RSA-3072, RSA-4096, ECDSA-P256, ECDSA-P384")},
      {"FeatureGateType", Cluster("featureGates:\n  EtcdLearnerMode: maybe\n"),
       ClusterErr("featureGates.EtcdLearnerMode: invalid value \"maybe\": must be a boolean")},

  };
}

// The control-plane components: extra volumes, extra arguments (a list in v1beta4, a map in
// v1beta3) and v1beta3's timeout.
std::vector<Case> ControlPlaneComponentCases() {
  return {
      {"VolumeHostPath",
       Cluster(
           "scheduler:\n  extraVolumes:\n  - name: v\n    hostPath: relative\n    mountPath: /m\n"),
       ClusterErr(
           "scheduler.extraVolumes[0].hostPath: invalid value \"relative\": path is not absolute")},
      {"VolumeName", Cluster("apiServer:\n  extraVolumes:\n  - hostPath: /a\n    mountPath: /m\n"),
       ClusterErr(
           "apiServer.extraVolumes[0].name: invalid value \"\": volume name must not be empty")},
      {"VolumePathType",
       Cluster("controllerManager:\n  extraVolumes:\n  - name: v\n    hostPath: /a\n    mountPath: "
               "/m\n    pathType: Folder\n"),
       ClusterErr(
           "controllerManager.extraVolumes[0].pathType: invalid value \"Folder\": must be one of "
           "DirectoryOrCreate, Directory, FileOrCreate, File, Socket, CharDevice, BlockDevice")},
      {"V1beta3ExtraArgsList", Cluster3("apiServer:\n  extraArgs:\n  - name: a\n    value: b\n"),
       "kubeadm.yaml: ClusterConfiguration (document 2): apiServer.extraArgs: invalid value "
       "\"[{\"name\":\"a\",\"value\":\"b\"}]\": must be a map of strings in v1beta3"},
      {"V1beta4ExtraArgsMap", Cluster("apiServer:\n  extraArgs:\n    a: b\n"),
       ClusterErr("apiServer.extraArgs: invalid value \"{\"a\":\"b\"}\": must be a list of {name, "
                  "value} in v1beta4")},
      {"V1beta4ArgWithoutName", Cluster("scheduler:\n  extraArgs:\n  - value: x\n"),
       ClusterErr(
           "scheduler.extraArgs[0].name: invalid value \"\": argument name must not be empty")},
      {"V1beta3ControlPlaneTimeout", Cluster3("apiServer:\n  timeoutForControlPlane: soon\n"),
       "kubeadm.yaml: ClusterConfiguration (document 2): apiServer.timeoutForControlPlane: invalid "
       "value \"soon\": time: invalid duration \"soon\""},
  };
}

// Local or external etcd.
std::vector<Case> EtcdCases() {
  return {
      {"EtcdBoth", Cluster("etcd:\n  local: {}\n  external:\n    endpoints: [http://e:2379]\n"),
       ClusterErr("etcd: invalid value \"local+external\": etcd.local and etcd.external are "
                  "mutually exclusive")},
      {"EtcdExternalNoEndpoints", Cluster("etcd:\n  external: {}\n"),
       ClusterErr(
           "etcd.external.endpoints: invalid value \"\": at least one endpoint is required")},
      {"EtcdExternalCertNeedsCa",
       Cluster("etcd:\n  external:\n    endpoints: [https://e:2379]\n    certFile: /c.crt\n    "
               "keyFile: /c.key\n"),
       ClusterErr(
           "etcd.external.caFile: invalid value \"\": required when certFile and keyFile are set")},
      {"EtcdExternalKeyWithoutCert",
       Cluster("etcd:\n  external:\n    endpoints: [https://e:2379]\n    keyFile: /c.key\n"),
       ClusterErr("etcd.external.certFile: invalid value \"\": either both or none of certFile and "
                  "keyFile must be set")},
      {"EtcdExternalTlsNeedsHttps",
       Cluster("etcd:\n  external:\n    endpoints: [http://e:2379]\n    caFile: /ca.crt\n"),
       ClusterErr("etcd.external.endpoints[0]: invalid value \"http://e:2379\": must use https "
                  "when caFile, certFile or keyFile is set")},
  };
}

// Bootstrap tokens and the certificate key (both secrets: redacted in messages).
std::vector<Case> BootstrapTokenCases() {
  return {
      {"TokenGroupsNeedAuthentication",
       Init("bootstrapTokens:\n- token: abcdef.0123456789abcdef\n  usages: [signing]\n"),
       InitErr("bootstrapTokens[0].groups: invalid value "
               "\"system:bootstrappers:kubeadm:default-node-token\": token groups cannot be "
               "specified unless usages includes \"authentication\"")},
      {"TokenTtlAndExpires",
       Init("bootstrapTokens:\n- token: abcdef.0123456789abcdef\n  ttl: 1h\n  expires: "
            "\"2030-01-01T00:00:00Z\"\n"),
       InitErr("bootstrapTokens[0]: invalid value \"\": ttl and expires are mutually exclusive")},
      {"TokenFormat", Init("bootstrapTokens:\n- token: abc.def\n"),
       InitErr("bootstrapTokens[0].token: invalid value \"abc.<redacted>\": the bootstrap token "
               "must match ^[a-z0-9]{6}\\.[a-z0-9]{16}$")},
      {"TokenTtl", Init("bootstrapTokens:\n- token: abcdef.0123456789abcdef\n  ttl: 1d\n"),
       InitErr("bootstrapTokens[0].ttl: invalid value \"1d\": time: unknown unit \"d\" in duration "
               "\"1d\"")},
      {"TokenNegativeTtl", Init("bootstrapTokens:\n- token: abcdef.0123456789abcdef\n  ttl: -1h\n"),
       InitErr("bootstrapTokens[0].ttl: invalid value \"-1h0m0s\": must be >= 0")},
      {"TokenUsage",
       Init(
           "bootstrapTokens:\n- token: abcdef.0123456789abcdef\n  usages: [signing, encryption]\n"),
       InitErr("bootstrapTokens[0].usages[1]: invalid value \"encryption\": must be one of "
               "signing, authentication")},
      {"TokenGroup",
       Init("bootstrapTokens:\n- token: abcdef.0123456789abcdef\n  groups: [system:nodes]\n"),
       InitErr("bootstrapTokens[0].groups[0]: invalid value \"system:nodes\": must match "
               "^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$")},
      {"CertificateKey", Init("certificateKey: abc\n"),
       InitErr("certificateKey: invalid value \"<redacted>\": must be 64 hexadecimal characters (a "
               "32-byte key)")},
  };
}

// nodeRegistration.
std::vector<Case> NodeRegistrationCases() {
  return {
      {"V1beta4KubeletExtraArgsMap", Init("nodeRegistration:\n  kubeletExtraArgs:\n    v: \"4\"\n"),
       InitErr("nodeRegistration.kubeletExtraArgs: invalid value \"{\"v\":\"4\"}\": must be a list "
               "of {name, value} in v1beta4")},
      {"V1beta3KubeletExtraArgsList",
       Init3("nodeRegistration:\n  kubeletExtraArgs:\n  - name: v\n    value: \"4\"\n"),
       InitErr("nodeRegistration.kubeletExtraArgs: invalid value "
               "\"[{\"name\":\"v\",\"value\":\"4\"}]\": must be a map of strings in v1beta3")},
      {"NameNotString", Init("nodeRegistration:\n  name: 42\n"),
       InitErr("nodeRegistration.name: invalid value \"42\": must be a string")},
      {"NodeName", Init("nodeRegistration:\n  name: bad_name\n"),
       InitErr("nodeRegistration.name: invalid value \"bad_name\": must be a lowercase RFC 1123 "
               "subdomain")},
      {"TaintEffect", Init("nodeRegistration:\n  taints:\n  - key: k\n    effect: Sometimes\n"),
       InitErr("nodeRegistration.taints[0].effect: invalid value \"Sometimes\": must be one of "
               "NoSchedule, PreferNoSchedule, NoExecute")},
      {"ImagePullPolicy", Init("nodeRegistration:\n  imagePullPolicy: Maybe\n"),
       InitErr("nodeRegistration.imagePullPolicy: invalid value \"Maybe\": must be one of Always, "
               "IfNotPresent, Never")},
      {"IgnorePreflightAllMixed", Init("nodeRegistration:\n  ignorePreflightErrors: [all, Swap]\n"),
       InitErr("nodeRegistration.ignorePreflightErrors: invalid value \"all,swap\": don't specify "
               "individual checks if 'all' is used")},
      {"CriSocket", Init("nodeRegistration:\n  criSocket: containerd.sock\n"),
       InitErr("nodeRegistration.criSocket: invalid value \"containerd.sock\": must be a unix:// "
               "URL (only the \"unix\" scheme is supported)")},
      {"CriSocketScheme", Init("nodeRegistration:\n  criSocket: npipe:////./pipe/containerd\n"),
       InitErr("nodeRegistration.criSocket: invalid value \"npipe:////./pipe/containerd\": must be "
               "a unix:// URL (only the \"unix\" scheme is supported)")},
      {"ImagePullSerialType", Init("nodeRegistration:\n  imagePullSerial: sometimes\n"),
       InitErr("nodeRegistration.imagePullSerial: invalid value \"sometimes\": must be a boolean")},
      {"Init3Taints", Init3("nodeRegistration:\n  taints: notalist\n"),
       InitErr("nodeRegistration.taints: invalid value \"notalist\": must be a list")},
  };
}

// The rest of InitConfiguration: the local API endpoint and the timeouts.
std::vector<Case> InitCases() {
  return {
      {"BindPortString", Init("localAPIEndpoint:\n  bindPort: abc\n"),
       InitErr("localAPIEndpoint.bindPort: invalid value \"abc\": must be an integer")},
      {"BindPortRange", Init("localAPIEndpoint:\n  bindPort: 70000\n"),
       InitErr("localAPIEndpoint.bindPort: invalid value \"70000\": must be between 1 and 65535")},
      {"AdvertiseAddress", Init("localAPIEndpoint:\n  advertiseAddress: 300.1.1.1\n"),
       InitErr("localAPIEndpoint.advertiseAddress: invalid value \"300.1.1.1\": must be a valid IP "
               "address")},
      {"TimeoutNotDuration", Init("timeouts:\n  discovery: 5\n"),
       InitErr("timeouts.discovery: invalid value \"5\": must be a duration string such as "
               "\"24h0m0s\"")},
  };
}

// The documents themselves: API version and kind.
std::vector<Case> DocumentCases() {
  return {
      {"UnsupportedVersion", "apiVersion: kubeadm.k8s.io/v1beta2\nkind: InitConfiguration\n",
       InitErr("apiVersion: invalid value \"kubeadm.k8s.io/v1beta2\": unsupported kubeadm API "
               "version; use kubeadm.k8s.io/v1beta3 or kubeadm.k8s.io/v1beta4")},
      {"MissingKind", "apiVersion: kubeadm.k8s.io/v1beta4\n",
       "kubeadm.yaml: document 1 (line 1): kind: required field is missing or not a string"},
      {"DuplicateKind", std::string(kInit4) + "---\n" + kInit4,
       "kubeadm.yaml: InitConfiguration (document 2): kind: InitConfiguration is specified twice"},
      {"DuplicateKey", Cluster("clusterName: a\nclusterName: b\n"),
       "kubeadm.yaml:7:1: duplicate key \"clusterName\""},
      {"ValueEscaped", Init("localAPIEndpoint:\n  bindPort: \"a\\nb\\e[2J\\\"\"\n"),
       InitErr("localAPIEndpoint.bindPort: invalid value \"a\\nb\\x1b[2J\"\": must be an integer")},
      {"CertificatesDirClimbs", Cluster("certificatesDir: /../escaped/pki\n"),
       ClusterErr("certificatesDir: invalid value \"/../escaped/pki\": must not contain \"..\"")},
      {"EtcdDataDirClimbs", Cluster("etcd:\n  local:\n    dataDir: /var/lib/etcd/../../..\n"),
       ClusterErr("etcd.local.dataDir: invalid value \"/var/lib/etcd/../../..\": must not contain "
                  "\"..\"")},
      {"EtcdDataDirRoot", Cluster("etcd:\n  local:\n    dataDir: //./\n"),
       ClusterErr("etcd.local.dataDir: invalid value \"//./\": must not be the root directory")},
  };
}

// Every case, topic by topic.
std::vector<Case> Cases() {
  std::vector<Case> all;
  for (auto topic : {NetworkingCases, ClusterCases, ControlPlaneComponentCases, EtcdCases,
                     BootstrapTokenCases, NodeRegistrationCases, InitCases, DocumentCases}) {
    std::vector<Case> cases = topic();
    all.insert(all.end(), cases.begin(), cases.end());
  }
  return all;
}

class InvalidConfigTest : public ::testing::TestWithParam<Case> {};

TEST_P(InvalidConfigTest, FailsWithOneLineNamingFileFieldAndValue) {
  kkadm::testing::FakeMachine machine;
  auto loaded = MakeInitConfiguration(ConfigSource{"kubeadm.yaml", GetParam().yaml}, InitFlags{},
                                      machine, BuiltInVersions());
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(loaded.error().message(), GetParam().message);
  EXPECT_EQ(loaded.error().message().find('\n'), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Table, InvalidConfigTest, ::testing::ValuesIn(Cases()),
                         [](const auto& param_info) { return param_info.param.name; });

TEST(InvalidConfigFixtureTest, ServiceSubnetFixture) {
  kkadm::testing::FakeMachine machine;
  auto loaded = MakeInitConfiguration(kkadm::testing::Testdata("bad_service_subnet.yaml"),
                                      InitFlags{}, machine, BuiltInVersions());
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().message(),
            "bad_service_subnet.yaml: ClusterConfiguration (document 2): networking.serviceSubnet: "
            "invalid value "
            "\"10.96.0.0/33\": must be a valid CIDR");
}

}  // namespace
}  // namespace kkadm::config
