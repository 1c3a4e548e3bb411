// `kkadm config print|validate` through a CLI::App holding only AddConfigCommand.
#include "cmd/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cmd/context.h"
#include "tests/fakes/fake_release_versions.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::cmd {
namespace {

using ::testing::HasSubstr;

struct CommandRun {
  std::string out;
  std::string err;
  Status status;
};

// Version labels are looked up in `versions` (by default: stable-1 is kkadm's own version).
CommandRun RunConfig(std::vector<std::string> args, config::ReleaseVersionSource versions =
                                                        kkadm::testing::StableIsBuiltInVersion()) {
  std::ostringstream out, err;
  CommandContext context(out, err);
  context.release_versions = std::move(versions);
  CLI::App app("test", "kkadm");
  AddConfigCommand(app, context);
  std::vector<const char*> argv = {"kkadm"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return CommandRun{out.str(), err.str(), InvalidArgument(e.what())};
  }
  return CommandRun{out.str(), err.str(), context.status};
}

std::string WriteFile(const kkadm::testing::TempDir& dir, const std::string& name,
                      const std::string& text) {
  std::string path = dir.path() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

constexpr const char* kInitDefaults = R"(apiVersion: kubeadm.k8s.io/v1beta4
bootstrapTokens:
- groups:
  - system:bootstrappers:kubeadm:default-node-token
  token: abcdef.0123456789abcdef
  ttl: 24h0m0s
  usages:
  - signing
  - authentication
kind: InitConfiguration
localAPIEndpoint:
  advertiseAddress: 1.2.3.4
  bindPort: 6443
nodeRegistration:
  criSocket: unix:///var/run/containerd/containerd.sock
  imagePullPolicy: IfNotPresent
  imagePullSerial: true
  name: node
  taints: null
timeouts:
  controlPlaneComponentHealthCheck: 4m0s
  discovery: 5m0s
  etcdAPICall: 2m0s
  kubeletHealthCheck: 4m0s
  kubernetesAPICall: 1m0s
  tlsBootstrap: 5m0s
  upgradeManifests: 5m0s
---
apiServer: {}
apiVersion: kubeadm.k8s.io/v1beta4
caCertificateValidityPeriod: 87600h0m0s
certificateValidityPeriod: 8760h0m0s
certificatesDir: /etc/kubernetes/pki
clusterName: kubernetes
controllerManager: {}
dns: {}
encryptionAlgorithm: RSA-2048
etcd:
  local:
    dataDir: /var/lib/etcd
imageRepository: registry.k8s.io
kind: ClusterConfiguration
kubernetesVersion: v1.32.0
networking:
  dnsDomain: cluster.local
  serviceSubnet: 10.96.0.0/12
proxy: {}
scheduler: {}
)";

TEST(ConfigCommandTest, PrintInitDefaults) {
  CommandRun run = RunConfig({"config", "print", "init-defaults"});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.out, kInitDefaults);
}

TEST(ConfigCommandTest, PrintInitDefaultsWithComponentConfigs) {
  CommandRun run = RunConfig({"config", "print", "init-defaults", "--component-configs",
                              "KubeletConfiguration,KubeProxyConfiguration"});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_THAT(run.out, HasSubstr("---\napiVersion: kubelet.config.k8s.io/v1beta1\n"));
  EXPECT_THAT(run.out, HasSubstr("clusterDNS:\n- 10.96.0.10\n"));
  EXPECT_THAT(run.out, HasSubstr("---\napiVersion: kubeproxy.config.k8s.io/v1alpha1\n"));
  CommandRun bad = RunConfig({"config", "print", "init-defaults", "--component-configs", "Foo"});
  EXPECT_EQ(bad.status.message(),
            "--component-configs: invalid value \"Foo\": must be one of KubeletConfiguration, "
            "KubeProxyConfiguration");
}

TEST(ConfigCommandTest, PrintJoinDefaults) {
  CommandRun run = RunConfig({"config", "print", "join-defaults"});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_THAT(run.out, HasSubstr("kind: JoinConfiguration\n"));
  EXPECT_THAT(run.out, HasSubstr("    apiServerEndpoint: kube-apiserver:6443\n"));
  EXPECT_THAT(run.out, HasSubstr("    unsafeSkipCAVerification: true\n"));
  EXPECT_THAT(run.out, HasSubstr("  tlsBootstrapToken: abcdef.0123456789abcdef\n"));
}

TEST(ConfigCommandTest, PrintedDefaultsValidate) {
  kkadm::testing::TempDir dir;
  for (const char* which : {"init-defaults", "join-defaults"}) {
    CommandRun printed = RunConfig({"config", "print", which});
    std::string path = WriteFile(dir, std::string(which) + ".yaml", printed.out);
    CommandRun run = RunConfig({"config", "validate", "--config", path});
    EXPECT_TRUE(run.status.ok()) << which << ": " << run.status.message();
    EXPECT_EQ(run.out, "ok\n");
  }
}

TEST(ConfigCommandTest, ValidateIsStrict) {
  kkadm::testing::TempDir dir;
  std::string path = WriteFile(dir, "k.yaml",
                               "apiVersion: kubeadm.k8s.io/v1beta4\nkind: "
                               "InitConfiguration\nnodeRegistration:\n  nmae: x\n");
  CommandRun run = RunConfig({"config", "validate", "--config", path});
  EXPECT_EQ(run.status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(run.status.message(),
            path + ": InitConfiguration (document 1): nodeRegistration.nmae: unknown field");
  EXPECT_EQ(run.out, "");
}

TEST(ConfigCommandTest, ValidateReportsInvalidValues) {
  kkadm::testing::TempDir dir;
  std::string path = WriteFile(dir, "k.yaml",
                               "apiVersion: kubeadm.k8s.io/v1beta3\nkind: "
                               "ClusterConfiguration\nnetworking:\n  podSubnet: x\n");
  CommandRun run = RunConfig({"config", "validate", "--config", path});
  EXPECT_EQ(run.status.message(), path +
                                      ": ClusterConfiguration (document 1): networking.podSubnet: "
                                      "invalid value \"x\": must be a valid CIDR");
  CommandRun missing = RunConfig({"config", "validate", "--config", dir.path() + "/absent.yaml"});
  // An unreadable --config is bad input (exit code 3), like every other config problem.
  EXPECT_EQ(missing.status.code(), StatusCode::kInvalidArgument);
}

// kubeadm's `config validate` resolves a label as init does: one its release bucket does not know
// falls back to kkadm's version, which validates.
TEST(ConfigCommandTest, ValidateLooksTheVersionLabelUp) {
  kkadm::testing::TempDir dir;
  std::string path = WriteFile(dir, "k.yaml",
                               "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ClusterConfiguration\n"
                               "kubernetesVersion: stable-1.31\n");
  auto files = std::make_shared<kkadm::testing::FakeReleaseFiles>();
  CommandRun run = RunConfig({"config", "validate", "--config", path},
                             kkadm::testing::FakeReleaseVersions(files));
  EXPECT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(files->fetched, std::vector<std::string>{std::string(config::kReleaseBucketUrl) +
                                                     "/release/stable-1.31.txt"});
}

}  // namespace
}  // namespace kkadm::cmd
