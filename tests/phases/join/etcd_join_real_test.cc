// control-plane-join/etcd against the real etcd 3.4 with mutual TLS: a running one-member cluster
// gets this node's etcd as a learner through util::EtcdClient, the joining etcd is started with
// exactly the command of the manifest kkadm wrote, it is promoted, and etcdctl sees two voting
// members. The certificates are kkadm's own (the certs work), for two nodes sharing the etcd CA.
//
// Runs only inside a fresh network namespace (KKADM_ETCD_JOIN_NETNS=1, set by
// tests/e2e/join_etcd_real_test.sh), where the joining etcd may bind 127.0.0.1:2379 and :2381 as
// its manifest says; the first member listens on 127.0.0.2, the joining one advertises 127.0.0.3.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "app/phases/certs/certs.h"
#include "app/phases/etcd/etcd_join.h"
#include "app/util/network.h"
#include "tests/phases/join/join_fixture.h"
#include "tests/util/servers/etcd_process.h"
#include "tests/util/servers/test_process.h"

namespace kkadm::phases {
namespace {

using kkadm::testing::BackgroundProcess;
using kkadm::testing::ReadFileOrEmpty;
using kkadm::testing::RunShell;

class EtcdJoinRealTest : public kkadm::testing::JoinPhasesTest {
 protected:
  void SetUp() override {
    if (std::getenv("KKADM_ETCD_JOIN_NETNS") == nullptr)
      GTEST_SKIP() << "runs from tests/e2e/join_etcd_real_test.sh";
    if (!RunShell("command -v etcd >/dev/null && command -v etcdctl >/dev/null"))
      GTEST_SKIP() << "no etcd";
    // Certificates must be valid now: the real clock everywhere.
    data_.host = &real_host_;
    data_.etcd = &real_etcd_joiner_;
    cluster_.init_cfg.cluster.encryption_algorithm = config::EncryptionAlgorithm::kEcdsaP256;
    MakeControlPlane("127.0.0.3");
  }

  // kkadm's PKI for the first node (127.0.0.2) and, with the same etcd CA, the joining node's etcd
  // certificates and etcd client certificate.
  void MakePki() {
    config::InitConfiguration first = cluster_.init_cfg;
    first.node_registration.name = "cp-1";
    first.local_api_endpoint.advertise_address = "127.0.0.2";
    certs::CertsEnv first_env{first, first_fs_, printer_, util::RealClock(), false, nullptr};
    ASSERT_TRUE(certs::CreatePKIAssets(first_env).ok());
    for (const char* file :
         {"/etc/kubernetes/pki/etcd/ca.crt", "/etc/kubernetes/pki/etcd/ca.key"}) {
      ASSERT_TRUE(fs_.WriteFile(file, *first_fs_.ReadFile(file), 0600).ok());
    }
    certs::CertsEnv env{cluster_.init_cfg, fs_, printer_, util::RealClock(), false, nullptr};
    for (const char* name : {"etcd-server", "etcd-peer", "apiserver-etcd-client"}) {
      ASSERT_TRUE(certs::CreateLeaf(*certs::FindCertSpec(name), env).ok()) << name;
    }
  }

  std::unique_ptr<BackgroundProcess> StartFirstMember() {
    return std::make_unique<BackgroundProcess>(
        kkadm::testing::MutualTlsEtcdArgv({"cp-1", first_root_.path() + "/var/lib/etcd",
                                           "https://127.0.0.2:2379", "https://127.0.0.2:2380",
                                           "http://127.0.0.2:2381",
                                           first_root_.path() + "/etc/kubernetes/pki/etcd"}),
        first_root_.path() + "/etcd.log");
  }

  // The joining etcd, started as the kubelet would start the static Pod kkadm wrote: its command,
  // with the node paths under this node's root.
  std::unique_ptr<BackgroundProcess> StartFromManifest() {
    YAML::Node pod = YAML::Load(Read("/etc/kubernetes/manifests/etcd.yaml"));
    std::vector<std::string> argv;
    for (const auto& arg : pod["spec"]["containers"][0]["command"]) {
      std::string a = arg.as<std::string>();
      const auto eq = a.find("=/");
      if (eq != std::string::npos) a = a.substr(0, eq + 1) + root_.path() + a.substr(eq + 1);
      argv.push_back(a);
    }
    argv.insert(argv.end(), {"--logger", "zap", "--log-outputs", "stderr"});
    return std::make_unique<BackgroundProcess>(argv, root_.path() + "/etcd.log");
  }

  // Runs control-plane-join/etcd and stands in for the kubelet meanwhile: the static Pod is started
  // (into `second`) as soon as it is written.
  Status RunJoinEtcdStartingItsPod(std::unique_ptr<BackgroundProcess>& second) {
    const auto start = std::chrono::steady_clock::now();
    Status joined = Internal("not run");
    std::thread phase([&] { joined = RunJoinEtcd(data_); });
    for (int i = 0; i < 1200 && !second; ++i) {
      if (fs_.Exists("/etc/kubernetes/manifests/etcd.yaml")) {
        second = StartFromManifest();
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    phase.join();
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    std::cout << "control-plane-join/etcd took " << took.count() << " ms\n";
    return joined;
  }

  // etcdctl, over mutual TLS with the joining node's client certificate, sees two voting members.
  void ExpectTwoVotingMembers() {
    const std::string pki = root_.path() + "/etc/kubernetes/pki/";
    const std::string list = root_.path() + "/members.json";
    ASSERT_TRUE(
        RunShell("etcdctl --endpoints https://127.0.0.2:2379,https://127.0.0.3:2379 --cacert " +
                 pki + "etcd/ca.crt --cert " + pki + "apiserver-etcd-client.crt --key " + pki +
                 "apiserver-etcd-client.key member list -w json > " + list));
    auto members = nlohmann::json::parse(ReadFileOrEmpty(list))["members"];
    ASSERT_EQ(members.size(), 2u) << members.dump();
    std::set<std::string> names;
    for (const auto& m : members) {
      names.insert(m.value("name", ""));
      EXPECT_FALSE(m.value("isLearner", false)) << m.dump();
    }
    EXPECT_EQ(names, (std::set<std::string>{"cp-1", "cp-2"}));
  }

  Status WaitHealthy(const std::string& endpoint) {
    auto config = util::EtcdClientConfigFor(fs_, "/etc/kubernetes/pki", {endpoint});
    if (!config) return config.error();
    util::EtcdClient client(*config);
    Status health = Unavailable("not polled");
    for (int i = 0; i < 300 && !health.ok(); ++i) {
      health = client.EndpointHealth(endpoint);
      if (!health.ok()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return health;
  }

  kkadm::testing::TempDir first_root_;
  util::RealFileSystem first_fs_{first_root_.path()};
  util::Host real_host_{host_seams_.Over(fs_, init_, util::RealClock(), machine_)};
  phases::RealEtcdJoiner real_etcd_joiner_{real_host_, printer_, access_};
};

TEST_F(EtcdJoinRealTest, LearnerJoinsWithKkadmsManifestAndIsPromoted) {
  MakePki();
  auto first = StartFirstMember();
  ASSERT_TRUE(WaitHealthy("https://127.0.0.2:2379").ok())
      << ReadFileOrEmpty(first_root_.path() + "/etcd.log");
  admin_api_.Put(
      "/api/v1/nodes/cp-1",
      {{"metadata",
        {{"name", "cp-1"}, {"labels", {{"node-role.kubernetes.io/control-plane", ""}}}}},
       {"status", {{"addresses", {{{"type", "InternalIP"}, {"address", "127.0.0.2"}}}}}}});
  network().etcd = [](util::EtcdClientConfig config) {
    return util::RealNetwork().Etcd(std::move(config));
  };

  std::unique_ptr<BackgroundProcess> second;
  Status joined = RunJoinEtcdStartingItsPod(second);
  ASSERT_TRUE(joined.ok()) << joined.message() << "\n"
                           << out_.str() << "\n"
                           << ReadFileOrEmpty(root_.path() + "/etcd.log");
  // Both members, in the order etcd listed them.
  EXPECT_THAT(
      Read("/etc/kubernetes/manifests/etcd.yaml"),
      ::testing::AnyOf(
          ::testing::HasSubstr(
              "--initial-cluster=cp-1=https://127.0.0.2:2380,cp-2=https://127.0.0.3:2380"),
          ::testing::HasSubstr(
              "--initial-cluster=cp-2=https://127.0.0.3:2380,cp-1=https://127.0.0.2:2380")));

  ExpectTwoVotingMembers();
}

}  // namespace
}  // namespace kkadm::phases
