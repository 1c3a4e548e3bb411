#include "app/phases/etcd/etcd_manifest.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "app/util/file_system_real.h"
#include "tests/fakes/regex_oracle.h"
#include "tests/fakes/temp_dir.h"
#include "tests/phases/controlplane/pod_fixture.h"

namespace kkadm::phases {
namespace {

using kkadm::testing::Has;

using nlohmann::json;

class EtcdManifestTest : public ::testing::Test {
 protected:
  kkadm::testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  config::InitConfiguration cfg_ = kkadm::testing::DefaultInitConfig();
  StaticPodInput Input() { return kkadm::testing::InputFor(cfg_, fs_); }
};

TEST_F(EtcdManifestTest, JoiningMemberListsTheClusterAndIsExisting) {
  auto command = EtcdCommand(
      Input(), {{"cp-0", "https://192.0.2.9:2380"}, {"cp-1", "https://192.0.2.10:2380"}});
  EXPECT_TRUE(
      Has(command, "--initial-cluster=cp-0=https://192.0.2.9:2380,cp-1=https://192.0.2.10:2380"));
  EXPECT_TRUE(Has(command, "--initial-cluster-state=existing"));
}

// kubeadm picks etcd's localhost with netutils.IsIPv6String: an IPv4-mapped advertise address is
// IPv4, so etcd listens on 127.0.0.1 (kkadm's inet_pton copy took it for IPv6: [::1]).
TEST_F(EtcdManifestTest, Ipv4MappedAdvertiseAddressListensOnIpv4Localhost) {
  cfg_.local_api_endpoint.advertise_address = "::ffff:192.0.2.10";
  auto command = EtcdCommand(Input(), {});
  EXPECT_TRUE(
      Has(command, "--listen-client-urls=https://127.0.0.1:2379,https://[::ffff:192.0.2.10]:2379"));
  EXPECT_TRUE(Has(command, "--listen-metrics-urls=http://127.0.0.1:2381"));
  cfg_.local_api_endpoint.advertise_address = "fd00::10";
  EXPECT_TRUE(Has(EtcdCommand(Input(), {}),
                  "--listen-client-urls=https://[::1]:2379,https://[fd00::10]:2379"));
}

TEST_F(EtcdManifestTest, ExtraArgOverridesDefault) {
  cfg_.cluster.etcd.local->extra_args = {{"snapshot-count", "5000"}, {"name", "custom"}};
  auto command = EtcdCommand(Input(), {});
  EXPECT_TRUE(Has(command, "--snapshot-count=5000"));
  EXPECT_FALSE(Has(command, "--snapshot-count=10000"));
  EXPECT_TRUE(Has(command, "--name=custom"));
}

TEST_F(EtcdManifestTest, ProbesFollowFirstListenMetricsURL) {
  cfg_.cluster.etcd.local->extra_args = {
      {"listen-metrics-urls", "https://[fd00::5]:12381,http://127.0.0.1:2381"}};
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& get = (*pod)["spec"]["containers"][0]["livenessProbe"]["httpGet"];
  EXPECT_EQ(get["host"], "fd00::5");
  EXPECT_EQ(get["port"], 12381);
  EXPECT_EQ(get["scheme"], "HTTPS");
}

TEST_F(EtcdManifestTest, ProbesWithoutHostUseLocalhost) {
  cfg_.cluster.etcd.local->extra_args = {{"listen-metrics-urls", "http://:3000"}};
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& get = (*pod)["spec"]["containers"][0]["startupProbe"]["httpGet"];
  EXPECT_EQ(get["host"], "127.0.0.1");
  EXPECT_EQ(get["port"], 3000);
  EXPECT_EQ(get["scheme"], "HTTP");
}

// How etcd_manifest.cc read the first listen-metrics-urls entry before, regex and all.
json OracleProbeTarget(const std::string& urls) {
  json probe = {{"host", "127.0.0.1"}, {"port", kEtcdMetricsPort}, {"scheme", "HTTP"}};
  const std::string first = urls.substr(0, urls.find(','));
  static const std::regex kURL(R"(([A-Za-z][A-Za-z0-9+.-]*)://(\[[^\]]*\]|[^:/]*)(:(\d*))?.*)");
  std::smatch m;
  if (!std::regex_match(first, m, kURL)) return probe;
  if (m[1].str() == "https") probe["scheme"] = "HTTPS";
  std::string host = m[2].str();
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  if (!host.empty()) probe["host"] = host;
  const std::string port = m[4].str();
  if (!port.empty() && port.size() <= 5 && std::stoi(port) > 0 && std::stoi(port) < 65536) {
    probe["port"] = std::stoi(port);
  }
  return probe;
}

TEST_F(EtcdManifestTest, ProbeTargetAgreesWithTheRegexParser) {
  const auto inputs = kkadm::testing::OracleInputs({"https://[fd00::5]:12381,http://127.0.0.1:2381",
                                                    "http://127.0.0.1:2381",
                                                    "http://:3000",
                                                    "http://[::1]",
                                                    "http://[::1]:",
                                                    "http://[::1]\n",
                                                    "http://[::1]x:5",
                                                    "http://a\nb:80",
                                                    "http://ab:8\n0",
                                                    "http://[abc",
                                                    "http://[a\n]:7",
                                                    "http://[a]b]:1",
                                                    "https://h:99999",
                                                    "https://h:0",
                                                    "https://h:65535",
                                                    "https://h:65536",
                                                    "https://h:0065535",
                                                    "unix://x",
                                                    "1http://x",
                                                    "http:/x",
                                                    "http://x/y:5",
                                                    "http://[x]\r:5",
                                                    "HTTPS://x:1",
                                                    "h+t.t-p://h:1",
                                                    "s://",
                                                    "s://:",
                                                    "s://[]:2"},
                                                   "hs:/[]1.\n\r,a", 3, 5000);
  for (const std::string& urls : inputs) {
    cfg_.cluster.etcd.local->extra_args = {{"listen-metrics-urls", urls}};
    auto pod = BuildEtcdPod(Input(), {});
    ASSERT_TRUE(pod.has_value()) << urls;
    json got = (*pod)["spec"]["containers"][0]["livenessProbe"]["httpGet"];
    got.erase("path");
    EXPECT_EQ(got, OracleProbeTarget(urls)) << urls;
  }
}

TEST_F(EtcdManifestTest, CustomImageAndDataDir) {
  cfg_.cluster.etcd.local->image_repository = "quay.io/coreos";
  cfg_.cluster.etcd.local->image_tag = "v3.4.23";
  cfg_.cluster.etcd.local->data_dir = "/data/etcd";
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& container = (*pod)["spec"]["containers"][0];
  EXPECT_EQ(container["image"], "quay.io/coreos/etcd:v3.4.23");
  EXPECT_EQ(container["volumeMounts"][0]["mountPath"], "/data/etcd");
  EXPECT_TRUE(Has(container["command"].get<std::vector<std::string>>(), "--data-dir=/data/etcd"));
}

TEST(EtcdServesLivezReadyzTest, FollowsTheReleasesThatAddedTheEndpoints) {
  for (const char* tag : {"3.5.16-0", "3.5.11", "v3.5.11-0", "3.4.29", "3.4.35-0", "3.6.0",
                          "3.10.0", "4.0.0", "latest", "", "3.5", "sha-abc", "3.5.99999999999"}) {
    EXPECT_TRUE(EtcdServesLivezReadyz(tag)) << tag;
  }
  for (const char* tag : {"3.5.10-0", "3.5.0", "v3.4.23", "3.4.28-0", "3.4.3", "3.3.99", "2.3.8"}) {
    EXPECT_FALSE(EtcdServesLivezReadyz(tag)) << tag;
  }
}

json Probe(const std::string& path, int failure_threshold, int period, int initial_delay) {
  json probe = {
      {"failureThreshold", failure_threshold},
      {"httpGet", {{"host", "127.0.0.1"}, {"path", path}, {"port", 2381}, {"scheme", "HTTP"}}},
      {"periodSeconds", period},
      {"timeoutSeconds", 15}};
  if (initial_delay > 0) probe["initialDelaySeconds"] = initial_delay;
  return probe;
}

// kubeadm 1.32 (phases/etcd/local.go with util/staticpod's LivenessProbe, ReadinessProbe and
// StartupProbe): /livez, /readyz, /readyz on the metrics endpoint.
TEST_F(EtcdManifestTest, DefaultImageGetsKubeadm132Probes) {
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& c = (*pod)["spec"]["containers"][0];
  EXPECT_EQ(c["livenessProbe"], Probe("/livez", 8, 10, 10));
  EXPECT_EQ(c["readinessProbe"], Probe("/readyz", 3, 1, 0));
  EXPECT_EQ(c["startupProbe"], Probe("/readyz", 24, 10, 10));
}

TEST_F(EtcdManifestTest, OldEtcdTagGetsHealthProbes) {
  cfg_.cluster.etcd.local->image_tag = "3.4.23-0";
  cfg_.timeouts.control_plane_component_health_check = std::chrono::minutes(2);
  cfg_.cluster.etcd.local->extra_args = {{"listen-metrics-urls", "https://[::1]:12381"}};
  auto pod = BuildEtcdPod(Input(), {});
  ASSERT_TRUE(pod.has_value());
  const json& c = (*pod)["spec"]["containers"][0];
  json liveness = Probe("/health?exclude=NOSPACE&serializable=true", 8, 10, 10);
  json startup = Probe("/health?serializable=false", 12, 10, 10);
  for (json* probe : {&liveness, &startup}) {
    (*probe)["httpGet"]["host"] = "::1";
    (*probe)["httpGet"]["port"] = 12381;
    (*probe)["httpGet"]["scheme"] = "HTTPS";
  }
  EXPECT_EQ(c["livenessProbe"], liveness);
  EXPECT_EQ(c["startupProbe"], startup);
  EXPECT_FALSE(c.contains("readinessProbe"));
}

}  // namespace
}  // namespace kkadm::phases
