// Restarting the static Pods that use renewed files: which ones, the manifest moves around the
// waits, the probing waiter over a fake network and clock.
#include "app/phases/certs/restart.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/util/file_system_real.h"
#include "app/util/yaml/yaml.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_network.h"
#include "tests/fakes/source_dir.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::certs {
namespace {

using testing::FakeClock;
using testing::FakeNetwork;

constexpr char kManifests[] = "/etc/kubernetes/manifests";

std::string GoldenManifest(const std::string& name) {
  std::ifstream in(testing::SourceDir() / "tests/phases/testdata/golden" / name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A node root holding kkadm's four v1beta4 golden manifests (0600, as kkadm writes them).
struct ManifestNode {
  testing::TempDir root;
  util::RealFileSystem fs{root.path()};
  ManifestNode() {
    for (const char* name :
         {"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"}) {
      EXPECT_TRUE(fs.WriteFile(std::string(kManifests) + "/" + name + ".yaml",
                               GoldenManifest(std::string("v1beta4-") + name + ".yaml"), 0600)
                      .ok());
    }
  }
};

std::vector<std::string> ComponentNames(const std::vector<StaticPodComponent>& components) {
  std::vector<std::string> names;
  for (const auto& c : components) names.push_back(c.name);
  return names;
}

TEST(RestartComponentsUsingTest, EachRenewedFileRestartsTheComponentsNamingIt) {
  ManifestNode node;
  const std::string pki = "/etc/kubernetes/pki";
  auto apiserver =
      ComponentsUsing({pki + "/apiserver.crt", pki + "/apiserver.key"}, kManifests, node.fs);
  ASSERT_TRUE(apiserver) << apiserver.error().message();
  EXPECT_EQ(ComponentNames(*apiserver), std::vector<std::string>{"kube-apiserver"});
  EXPECT_EQ((*apiserver)[0].health_url, "https://192.0.2.10:6443/livez");
  EXPECT_EQ((*apiserver)[0].uses,
            (std::vector<std::string>{pki + "/apiserver.crt", pki + "/apiserver.key"}));

  auto kcm = ComponentsUsing({"/etc/kubernetes/controller-manager.conf"}, kManifests, node.fs);
  ASSERT_TRUE(kcm);
  EXPECT_EQ(ComponentNames(*kcm), std::vector<std::string>{"kube-controller-manager"});
  EXPECT_EQ((*kcm)[0].health_url, "https://127.0.0.1:10257/healthz");

  auto etcd = ComponentsUsing({pki + "/etcd/peer.crt", pki + "/apiserver-etcd-client.key"},
                              kManifests, node.fs);
  ASSERT_TRUE(etcd);
  EXPECT_EQ(ComponentNames(*etcd), (std::vector<std::string>{"etcd", "kube-apiserver"}));
  EXPECT_EQ((*etcd)[0].health_url, "http://127.0.0.1:2381/livez");
}

TEST(RestartComponentsUsingTest, AdminConfsAndTheHealthcheckClientRestartNothing) {
  ManifestNode node;
  auto none = ComponentsUsing({"/etc/kubernetes/admin.conf", "/etc/kubernetes/super-admin.conf",
                               "/etc/kubernetes/pki/etcd/healthcheck-client.crt",
                               "/etc/kubernetes/pki/etcd/healthcheck-client.key"},
                              kManifests, node.fs);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TEST(RestartComponentsUsingTest, AllInKubeadmsUpgradeOrderAndAbsentManifestsSkipped) {
  ManifestNode node;
  std::vector<std::string> all;
  for (const char* f : {"apiserver", "etcd/server", "front-proxy-client"}) {
    all.push_back(std::string("/etc/kubernetes/pki/") + f + ".crt");
  }
  all.push_back("/etc/kubernetes/scheduler.conf");
  all.push_back("/etc/kubernetes/controller-manager.conf");
  auto components = ComponentsUsing(all, kManifests, node.fs);
  ASSERT_TRUE(components);
  EXPECT_EQ(ComponentNames(*components),
            (std::vector<std::string>{"etcd", "kube-apiserver", "kube-controller-manager",
                                      "kube-scheduler"}));
  ASSERT_TRUE(node.fs.Remove(std::string(kManifests) + "/etcd.yaml").ok());
  components = ComponentsUsing(all, kManifests, node.fs);
  ASSERT_TRUE(components);
  EXPECT_EQ(components->size(), 3u);
}

TEST(RestartComponentsUsingTest, AManifestWithoutProbeIsAnErrorBeforeAnythingMoves) {
  ManifestNode node;
  const std::string path = std::string(kManifests) + "/kube-scheduler.yaml";
  ASSERT_TRUE(node.fs
                  .WriteFile(path,
                             "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: s\n"
                             "    command: [kube-scheduler, --kubeconfig=/etc/kubernetes/"
                             "scheduler.conf]\n",
                             0600)
                  .ok());
  auto components = ComponentsUsing({"/etc/kubernetes/scheduler.conf"}, kManifests, node.fs);
  ASSERT_FALSE(components);
  EXPECT_NE(components.error().message().find("cannot tell when kube-scheduler is healthy"),
            std::string::npos)
      << components.error().message();
  ASSERT_TRUE(node.fs.WriteFile(path, "a: [", 0600).ok());
  EXPECT_FALSE(ComponentsUsing({"/etc/kubernetes/scheduler.conf"}, kManifests, node.fs));
}

TEST(RestartLivenessUrlTest, NamedPortEmptyHostIpv6AndDefaults) {
  auto pod = [](const std::string& get) {
    return *util::yaml::Read(
        "spec:\n  containers:\n  - ports: [{name: probe, containerPort: 8443}]\n"
        "    livenessProbe:\n      httpGet: " +
        get + "\n");
  };
  EXPECT_EQ(*LivenessUrl(pod("{port: probe, scheme: HTTPS, path: /livez}")),
            "https://127.0.0.1:8443/livez");
  EXPECT_EQ(*LivenessUrl(pod("{host: 'fd00::1', port: 2381}")), "http://[fd00::1]:2381/");
  EXPECT_FALSE(LivenessUrl(pod("{port: nope}")));
  EXPECT_FALSE(LivenessUrl(*util::yaml::Read("spec: {containers: [{name: x}]}")));
}

// Records, at each wait, where the manifest is; answers as told.
class RecordingWaiter final : public ComponentWaiter {
 public:
  explicit RecordingWaiter(util::FileSystem& fs) : fs_(fs) {}
  Status WaitStopped(const StaticPodComponent& c, std::chrono::milliseconds) override {
    log.push_back("stop " + c.name + State(c));
    return c.name == fail_stop ? Unavailable("still answers") : Status();
  }
  Status WaitHealthy(const StaticPodComponent& c, std::chrono::milliseconds) override {
    log.push_back("healthy " + c.name + State(c));
    return c.name == fail_healthy ? Unavailable("connection refused") : Status();
  }
  std::vector<std::string> log;
  std::string fail_stop, fail_healthy;

 private:
  std::string State(const StaticPodComponent& c) {
    const std::string held =
        std::string(kRestartHoldingDir) + c.manifest.substr(c.manifest.rfind('/'));
    return std::string(fs_.Exists(c.manifest) ? " in" : " out") + (fs_.Exists(held) ? " held" : "");
  }
  util::FileSystem& fs_;
};

struct RestartFixture {
  ManifestNode node;
  RecordingWaiter waiter{node.fs};
  std::ostringstream out;
  util::Printer printer{out};
  std::vector<StaticPodComponent> components;
  RestartFixture() {
    auto all =
        ComponentsUsing({"/etc/kubernetes/pki/apiserver.crt", "/etc/kubernetes/scheduler.conf"},
                        kManifests, node.fs);
    components = *all;
  }
  Status Run() {
    return RestartComponents(
        components,
        {.fs = node.fs, .waiter = waiter, .out = printer, .timeout = std::chrono::seconds(7)});
  }
  void ExpectManifestsAsWritten() {
    for (const char* name : {"kube-apiserver", "kube-scheduler"}) {
      const std::string path = std::string(kManifests) + "/" + name + ".yaml";
      EXPECT_EQ(*node.fs.ReadFile(path), GoldenManifest(std::string("v1beta4-") + name + ".yaml"));
      EXPECT_EQ(node.fs.Stat(path)->mode, 0600u);
    }
    EXPECT_TRUE(node.fs.ListDir(kRestartHoldingDir)->empty());
  }
};

TEST(RestartComponentsTest, OneAtATimeStoppedWhileOutHealthyOnceBack) {
  RestartFixture f;
  ASSERT_TRUE(f.Run().ok());
  EXPECT_EQ(f.waiter.log, (std::vector<std::string>{
                              "stop kube-apiserver out held", "healthy kube-apiserver in",
                              "stop kube-scheduler out held", "healthy kube-scheduler in"}));
  f.ExpectManifestsAsWritten();
  EXPECT_NE(f.out.str().find("[control-plane-restart] Restarted kube-apiserver, kube-scheduler: "
                             "all healthy"),
            std::string::npos)
      << f.out.str();
}

TEST(RestartComponentsTest, NotStoppedPutsTheManifestBackAndNamesWhatWasNotRestarted) {
  RestartFixture f;
  f.waiter.fail_stop = "kube-apiserver";
  Status status = f.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "restarting kube-apiserver (not restarted: kube-scheduler): the kubelet did not stop "
            "it within 7s (its manifest is back): still answers");
  EXPECT_EQ(f.waiter.log, std::vector<std::string>{"stop kube-apiserver out held"});
  f.ExpectManifestsAsWritten();
}

TEST(RestartComponentsTest, NotHealthyAgainFailsNamingTheComponentManifestBack) {
  RestartFixture f;
  f.waiter.fail_healthy = "kube-scheduler";
  Status status = f.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "restarting kube-scheduler: not healthy 7s after its manifest was put back: "
            "connection refused");
  f.ExpectManifestsAsWritten();
}

TEST(RestartComponentsTest, NothingToRestartSaysSo) {
  RestartFixture f;
  f.components.clear();
  ASSERT_TRUE(f.Run().ok());
  EXPECT_NE(f.out.str().find("No static Pod uses the renewed files: nothing to restart"),
            std::string::npos);
}

TEST(RestoreHeldManifestsTest, PutsBackWhatAKilledRestartLeftOrDropsAStaleCopy) {
  ManifestNode node;
  std::ostringstream out;
  util::Printer printer(out);
  const std::string manifest = std::string(kManifests) + "/kube-apiserver.yaml";
  const std::string held = std::string(kRestartHoldingDir) + "/kube-apiserver.yaml";
  const std::string text = *node.fs.ReadFile(manifest);
  ASSERT_TRUE(node.fs.WriteFile(held, text, 0600).ok());
  ASSERT_TRUE(node.fs.Remove(manifest).ok());
  ASSERT_TRUE(
      node.fs.WriteFile(std::string(kRestartHoldingDir) + "/etcd.yaml", "stale", 0600).ok());
  ASSERT_TRUE(RestoreHeldManifests(node.fs, kManifests, printer).ok());
  EXPECT_EQ(*node.fs.ReadFile(manifest), text);
  EXPECT_EQ(*node.fs.ReadFile(std::string(kManifests) + "/etcd.yaml"),
            GoldenManifest("v1beta4-etcd.yaml"));
  EXPECT_TRUE(node.fs.ListDir(kRestartHoldingDir)->empty());
  EXPECT_EQ(out.str(), "[control-plane-restart] Put back " + manifest +
                           ", which an interrupted restart had moved out\n");
}

StaticPodComponent SchedulerComponent() {
  return {.name = "kube-scheduler",
          .manifest = "/m/kube-scheduler.yaml",
          .health_url = "https://127.0.0.1:10259/healthz",
          .uses = {}};
}

TEST(ProbingComponentWaiterTest, StoppedOnceNothingAnswersProbesUnverifiedWithoutCredentials) {
  FakeNetwork net;
  FakeClock clock;
  std::ostringstream out;
  util::Printer printer(out);
  int calls = 0;
  net.http.handler = [&](const testing::FakeHttpServer::Seen&) -> Result<util::HttpResponse> {
    if (++calls <= 3) return util::HttpResponse{200, "ok", {}};
    return Unavailable("Couldn't connect to server");
  };
  auto waiter = NewProbingComponentWaiter(net, clock, printer);
  ASSERT_TRUE(waiter->WaitStopped(SchedulerComponent(), std::chrono::seconds(10)).ok());
  EXPECT_EQ(calls, 4);
  const util::HttpClientOptions& options = net.http.seen()[0].options;
  EXPECT_TRUE(options.insecure_skip_tls_verify);
  EXPECT_TRUE(options.client_cert_pem.empty() && options.bearer_token.empty());
  EXPECT_EQ(net.http.seen()[0].request.url, "https://127.0.0.1:10259/healthz");
  EXPECT_NE(out.str().find("The kubelet stopped kube-scheduler after 300ms"), std::string::npos)
      << out.str();
}

TEST(ProbingComponentWaiterTest, StillAnsweringTimesOutWithinTheBound) {
  FakeNetwork net;
  FakeClock clock;
  std::ostringstream out;
  util::Printer printer(out);
  net.http.handler = [](const testing::FakeHttpServer::Seen&) -> Result<util::HttpResponse> {
    return util::HttpResponse{200, "ok", {}};
  };
  auto waiter = NewProbingComponentWaiter(net, clock, printer);
  Status status = waiter->WaitStopped(SchedulerComponent(), std::chrono::seconds(2));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "https://127.0.0.1:10259/healthz still answers (HTTP 200)");
  EXPECT_LE(clock.slept(), std::chrono::milliseconds(2001));
}

TEST(ProbingComponentWaiterTest, HealthyOnlyOn200) {
  FakeNetwork net;
  FakeClock clock;
  std::ostringstream out;
  util::Printer printer(out);
  int calls = 0;
  net.http.handler = [&](const testing::FakeHttpServer::Seen&) -> Result<util::HttpResponse> {
    ++calls;
    if (calls == 1) return Unavailable("Couldn't connect to server");
    if (calls == 2) return util::HttpResponse{500, "etcd not ok", {}};
    return util::HttpResponse{200, "ok", {}};
  };
  auto waiter = NewProbingComponentWaiter(net, clock, printer);
  ASSERT_TRUE(waiter->WaitHealthy(SchedulerComponent(), std::chrono::seconds(10)).ok());
  EXPECT_EQ(calls, 3);
  EXPECT_NE(out.str().find("kube-scheduler is healthy after 200ms"), std::string::npos);

  net.http.handler = [](const testing::FakeHttpServer::Seen&) -> Result<util::HttpResponse> {
    return util::HttpResponse{503, "", {}};
  };
  Status status = waiter->WaitHealthy(SchedulerComponent(), std::chrono::seconds(1));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "GET https://127.0.0.1:10259/healthz: HTTP 503");
}

TEST(DryRunComponentWaiterTest, SaysWhatItWouldWaitFor) {
  std::ostringstream out;
  util::Printer printer(out);
  auto waiter = NewDryRunComponentWaiter(printer);
  ASSERT_TRUE(waiter->WaitStopped(SchedulerComponent(), std::chrono::minutes(4)).ok());
  ASSERT_TRUE(waiter->WaitHealthy(SchedulerComponent(), std::chrono::minutes(4)).ok());
  EXPECT_EQ(out.str(),
            "[dryrun] Would wait up to 4m0s for the kubelet to stop kube-scheduler "
            "(https://127.0.0.1:10259/healthz no longer answering)\n"
            "[dryrun] Would wait up to 4m0s for a healthy kube-scheduler at "
            "https://127.0.0.1:10259/healthz\n");
}

}  // namespace
}  // namespace kkadm::phases::certs
