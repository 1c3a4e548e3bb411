#include "app/phases/controlplane/manifests.h"

#include <gtest/gtest.h>

#include "app/phases/etcd/etcd_manifest.h"
#include "app/util/file_system_real.h"
#include "app/util/yaml/yaml.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/controlplane/pod_fixture.h"
#include "tests/phases/golden.h"

namespace kkadm::phases {
namespace {

using nlohmann::json;

constexpr const char* kComponents[] = {kKubeAPIServer, kKubeControllerManager, kKubeScheduler};

class ManifestsTest : public ::testing::Test {
 protected:
  kkadm::testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  config::InitConfiguration cfg_ = kkadm::testing::DefaultInitConfig();

  StaticPodInput Input() { return kkadm::testing::InputFor(cfg_, fs_); }

  // Writes every manifest of the input into /etc/kubernetes/manifests and returns one's text.
  std::string Write(const std::string& component, const StaticPodInput& input) {
    Status status =
        component == kEtcd
            ? CreateLocalEtcdManifest(input, {}, fs_, "/etc/kubernetes/manifests", {})
            : CreateControlPlaneManifest(component, input, fs_, "/etc/kubernetes/manifests", {});
    EXPECT_TRUE(status.ok()) << status.ToString();
    auto text = fs_.ReadFile("/etc/kubernetes/manifests/" + component + ".yaml");
    EXPECT_TRUE(text.has_value());
    return text.value_or("");
  }

  // The file matches its golden copy and parses back to the very Pod that was built.
  void CheckGolden(const std::string& prefix, const std::string& component,
                   const StaticPodInput& input) {
    const std::string text = Write(component, input);
    kkadm::testing::ExpectGolden(prefix + "-" + component + ".yaml", text);
    auto built =
        component == kEtcd ? BuildEtcdPod(input, {}) : BuildControlPlanePod(component, input);
    ASSERT_TRUE(built.has_value());
    auto parsed = util::yaml::Read(text);
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, *built) << component;
  }
};

// v1beta3 style: extraArgs came from a map, so they are unique and sorted by name.
TEST_F(ManifestsTest, V1beta3Golden) {
  cfg_.cluster.api_server.component.extra_args = {{"audit-log-maxage", "30"},
                                                  {"authorization-mode", "Node,Bogus,RBAC"}};
  cfg_.cluster.controller_manager.extra_args = {{"bind-address", "0.0.0.0"}};
  cfg_.cluster.scheduler.extra_args = {{"bind-address", "192.0.2.10"}, {"v", "2"}};
  for (const char* component : kComponents) CheckGolden("v1beta3", component, Input());
  CheckGolden("v1beta3", kEtcd, Input());
}

// v1beta4 style: a list keeping duplicates, extraEnvs, extraVolumes overriding a default, a Pod
// subnet, proxy variables in the environment and distribution CA directories on the node.
TEST_F(ManifestsTest, V1beta4Golden) {
  auto& api = cfg_.cluster.api_server.component;
  api.extra_args = {{"runtime-config", "api/all=true"},
                    {"feature-gates", "B=true"},
                    {"feature-gates", "A=false"},
                    {"service-cluster-ip-range", "10.100.0.0/16"}};
  api.extra_envs = {{"GODEBUG", "x509sha1=1"}, {"HTTPS_PROXY", "http://override:3128"}};
  api.extra_volumes = {{.name = "k8s-certs",
                        .host_path = "/srv/pki",
                        .mount_path = "/etc/kubernetes/pki",
                        .read_only = true,
                        .path_type = "Directory"},
                       {.name = "audit",
                        .host_path = "/var/log/audit",
                        .mount_path = "/var/log/audit",
                        .path_type = ""}};
  cfg_.cluster.controller_manager.extra_args = {{"flex-volume-plugin-dir", "/opt/flex"}};
  cfg_.cluster.networking.pod_subnet = "10.244.0.0/16";
  cfg_.cluster.etcd.local->extra_args = {{"quota-backend-bytes", "8589934592"}};
  cfg_.cluster.etcd.local->extra_envs = {{"ETCD_UNSUPPORTED_ARCH", "arm"}};
  cfg_.node_registration.image_pull_policy = "Always";
  ASSERT_TRUE(fs_.MakeDirs("/etc/ca-certificates", 0755).ok());
  ASSERT_TRUE(fs_.MakeDirs("/usr/share/ca-certificates", 0755).ok());
  StaticPodInput input = Input();
  input.environment = {{"HTTPS_PROXY", "http://proxy:3128"},
                       {"no_proxy", "10.0.0.0/8"},
                       {"HOME", "/root"},
                       {"ftp_proxy", ""}};
  for (const char* component : kComponents) CheckGolden("v1beta4", component, input);
  CheckGolden("v1beta4", kEtcd, input);
}

TEST_F(ManifestsTest, IPv6Golden) {
  cfg_.local_api_endpoint.advertise_address = "fd00::10";
  cfg_.cluster.networking.service_subnet = "fd00:10::/108";
  CheckGolden("ipv6", kKubeAPIServer, Input());
  CheckGolden("ipv6", kEtcd, Input());
}

TEST_F(ManifestsTest, ExternalEtcdGolden) {
  cfg_.cluster.etcd.local.reset();
  cfg_.cluster.etcd.external =
      config::ExternalEtcd{.endpoints = {"https://10.0.0.1:2379", "https://10.0.0.2:2379"},
                           .ca_file = "/etc/etcd/pki/ca.crt",
                           .cert_file = "/etc/etcd/pki/client/apiserver.crt",
                           .key_file = "/srv/keys/apiserver.key"};
  CheckGolden("external-etcd", kKubeAPIServer, Input());
  // No etcd Pod for an external cluster.
  EXPECT_EQ(CreateLocalEtcdManifest(Input(), {}, fs_, "/etc/kubernetes/manifests", {}).code(),
            StatusCode::kFailedPrecondition);
}

TEST_F(ManifestsTest, ExternalCAGolden) {
  StaticPodInput input = Input();
  input.external_ca = true;
  CheckGolden("external-ca", kKubeControllerManager, input);
}

TEST_F(ManifestsTest, ManifestFileAndDirectoryModes) {
  Write(kKubeScheduler, Input());
  EXPECT_EQ(fs_.Stat("/etc/kubernetes/manifests")->mode, 0700u);
  EXPECT_EQ(fs_.Stat("/etc/kubernetes/manifests/kube-scheduler.yaml")->mode, 0600u);
}

TEST_F(ManifestsTest, RelativeExtraVolumeIsRejected) {
  cfg_.cluster.scheduler.extra_volumes = {
      {.name = "bad", .host_path = "relative/dir", .mount_path = "/x", .path_type = ""}};
  Status status =
      CreateControlPlaneManifest(kKubeScheduler, Input(), fs_, "/etc/kubernetes/manifests", {});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("\"bad\""), std::string::npos) << status.message();
  EXPECT_FALSE(fs_.Exists("/etc/kubernetes/manifests/kube-scheduler.yaml"));
}

TEST_F(ManifestsTest, PatcherSeesTargetAndChangesPod) {
  std::vector<std::string> targets;
  ManifestPatcher patcher = [&targets](const std::string& target, json pod) -> Result<json> {
    targets.push_back(target);
    pod["metadata"]["labels"]["patched"] = "yes";
    return pod;
  };
  ASSERT_TRUE(CreateControlPlaneManifest(kKubeAPIServer, Input(), fs_, "/m", patcher).ok());
  ASSERT_TRUE(CreateLocalEtcdManifest(Input(), {}, fs_, "/m", patcher).ok());
  EXPECT_EQ(targets, (std::vector<std::string>{"kube-apiserver", "etcd"}));
  EXPECT_NE(fs_.ReadFile("/m/etcd.yaml")->find("    patched: \"yes\"\n"), std::string::npos);
}

TEST_F(ManifestsTest, PatcherErrorStopsTheWrite) {
  ManifestPatcher patcher = [](const std::string&, json) -> Result<json> {
    return InvalidArgument("bad patch");
  };
  Status status = CreateControlPlaneManifest(kKubeScheduler, Input(), fs_, "/m", patcher);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("bad patch"), std::string::npos);
  EXPECT_FALSE(fs_.Exists("/m/kube-scheduler.yaml"));
}

TEST_F(ManifestsTest, StartupThresholdFollowsHealthCheckTimeout) {
  StaticPodInput input = Input();
  input.health_check_timeout = std::chrono::seconds(95);
  auto pod = BuildControlPlanePod(kKubeScheduler, input);
  ASSERT_TRUE(pod.has_value());
  EXPECT_EQ((*pod)["spec"]["containers"][0]["startupProbe"]["failureThreshold"], 10);
}

TEST_F(ManifestsTest, UnspecifiedAdvertiseAddressLeavesProbeHostOut) {
  cfg_.local_api_endpoint.advertise_address = "0.0.0.0";
  auto pod = BuildControlPlanePod(kKubeAPIServer, Input());
  ASSERT_TRUE(pod.has_value());
  EXPECT_FALSE((*pod)["spec"]["containers"][0]["livenessProbe"]["httpGet"].contains("host"));
}

TEST_F(ManifestsTest, AuthorizationConfigDropsAuthorizationMode) {
  cfg_.cluster.api_server.component.extra_args = {{"authorization-config", "/etc/authz.yaml"}};
  auto pod = BuildControlPlanePod(kKubeAPIServer, Input());
  ASSERT_TRUE(pod.has_value());
  for (const auto& flag : (*pod)["spec"]["containers"][0]["command"]) {
    EXPECT_EQ(flag.get<std::string>().rfind("--authorization-mode", 0), std::string::npos);
  }
}

}  // namespace
}  // namespace kkadm::phases
