// EtcdClient against a real etcd 3.4 on 127.0.0.1 with mutual TLS (certs from mkcerts.sh), and the
// gateway JSON parsing.
#include "app/util/etcd_client.h"

#include <gtest/gtest.h>

#include "tests/fakes/temp_dir.h"
#include "tests/util/servers/echo_server.h"
#include "tests/util/servers/etcd_process.h"
#include "tests/util/servers/pki_suite.h"

namespace kkadm::util {
namespace {

using testing::BackgroundProcess;
using testing::FreePort;

std::string Loopback(const std::string& scheme, int port) {
  return scheme + "://127.0.0.1:" + std::to_string(port);
}

class EtcdClientTest : public testing::PkiSuiteTest<EtcdClientTest> {
 protected:
  static void SetUpTestSuite() {
    suite_set_up_ = false;  // stays false if an ASSERT below returns early
    if (!testing::RunShell("command -v etcd >/dev/null")) {
      suite_set_up_ = true;  // skipped, not failed
      GTEST_SKIP() << "etcd is not installed";
    }
    if (!MakePki()) return;
    client_url_ = Loopback("https", FreePort());
    std::vector<std::string> argv = testing::MutualTlsEtcdArgv(
        {"m0", dir_->path() + "/data", client_url_, Loopback("https", FreePort()),
         Loopback("http", FreePort()), pki_.dir});
    // A test cluster of its own, electing its leader at once.
    argv.insert(argv.end(), {"--initial-cluster-token", "kkadm-test", "--heartbeat-interval", "10",
                             "--election-timeout", "100"});
    etcd_ = new BackgroundProcess(argv, dir_->path() + "/etcd.log");
    ASSERT_TRUE(etcd_->started());
    Status health = AwaitHealthy();
    ASSERT_TRUE(health.ok()) << health.message() << "\n"
                             << testing::ReadFileOrEmpty(dir_->path() + "/etcd.log");
    suite_set_up_ = true;
  }
  static void TearDownTestSuite() {
    delete etcd_;  // SIGTERM, reaped
    etcd_ = nullptr;
    PkiSuiteTest::TearDownTestSuite();
  }

  // Up to 10 s for etcd to answer its health check (while it runs).
  static Status AwaitHealthy() {
    EtcdClient client(Config());
    Status health = Unavailable("not polled");
    for (int i = 0; i < 200 && !health.ok() && etcd_->running(); ++i) {
      health = client.EndpointHealth(client_url_);
      if (!health.ok()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return health;
  }

  static EtcdClientConfig Config() {
    EtcdClientConfig config;
    config.endpoints = {client_url_};
    config.ca_pem = pki_.Pem("ca.crt");
    config.client_cert_pem = pki_.Pem("client.crt");
    config.client_key_pem = pki_.Pem("client.key");
    config.request_timeout = std::chrono::milliseconds(3000);
    config.retry_timeout = std::chrono::milliseconds(5000);
    config.retry_interval = std::chrono::milliseconds(50);
    return config;
  }

  inline static BackgroundProcess* etcd_ = nullptr;
  inline static std::string client_url_;
};

TEST_F(EtcdClientTest, MemberListStatusAndHealth) {
  EtcdClient client(Config());
  auto members = client.MemberList();
  ASSERT_TRUE(members) << members.error().message();
  ASSERT_EQ(members->size(), 1u);
  const EtcdMember& m0 = members->front();
  EXPECT_EQ(m0.name, "m0");
  EXPECT_NE(m0.id, 0u);
  EXPECT_EQ(m0.client_urls, std::vector<std::string>{client_url_});
  EXPECT_FALSE(m0.is_learner);

  auto status = client.EndpointStatus(client_url_);
  ASSERT_TRUE(status) << status.error().message();
  EXPECT_EQ(status->version.rfind("3.", 0), 0u) << status->version;
  EXPECT_EQ(status->member_id, m0.id);
  EXPECT_EQ(status->leader, m0.id);
  EXPECT_GT(status->db_size, 0u);
  EXPECT_GT(status->raft_index, 0u);
  EXPECT_TRUE(client.EndpointHealth(client_url_).ok());
}

TEST_F(EtcdClientTest, AddLearnerThenRemoveIt) {
  EtcdClient client(Config());
  std::string peer = Loopback("https", FreePort());
  auto added = client.MemberAdd({peer}, /*is_learner=*/true);
  ASSERT_TRUE(added) << added.error().message();
  EXPECT_NE(added->added.id, 0u);
  EXPECT_TRUE(added->added.is_learner);
  EXPECT_EQ(added->added.peer_urls, std::vector<std::string>{peer});
  ASSERT_EQ(added->members.size(), 2u);

  auto members = client.MemberList();
  ASSERT_TRUE(members) << members.error().message();
  ASSERT_EQ(members->size(), 2u);
  bool found = false;
  for (const auto& m : *members)
    if (m.id == added->added.id) found = m.is_learner && m.name.empty();
  EXPECT_TRUE(found);

  // The learner never starts, so promotion is retried until the (short) deadline.
  EtcdClientConfig short_config = Config();
  short_config.retry_timeout = std::chrono::milliseconds(300);
  Status promote = EtcdClient(short_config).MemberPromote(added->added.id);
  EXPECT_EQ(promote.code(), StatusCode::kUnavailable);
  EXPECT_NE(promote.message().find("in sync with leader"), std::string::npos) << promote.message();

  ASSERT_TRUE(client.MemberRemove(added->added.id).ok());
  members = client.MemberList();
  ASSERT_TRUE(members);
  EXPECT_EQ(members->size(), 1u);
  Status again = client.MemberRemove(added->added.id);
  EXPECT_EQ(again.code(), StatusCode::kNotFound) << again.message();
}

TEST_F(EtcdClientTest, TriesTheNextEndpoint) {
  EtcdClientConfig config = Config();
  config.endpoints = {Loopback("https", FreePort()), client_url_};
  auto members = EtcdClient(config).MemberList();
  ASSERT_TRUE(members) << members.error().message();
  EXPECT_EQ(members->size(), 1u);
}

TEST_F(EtcdClientTest, NoClientCertificateFailsAfterRetries) {
  EtcdClientConfig config = Config();
  config.client_cert_pem.clear();
  config.client_key_pem.clear();
  config.retry_timeout = std::chrono::milliseconds(200);
  auto members = EtcdClient(config).MemberList();
  ASSERT_FALSE(members);
  EXPECT_EQ(members.error().code(), StatusCode::kUnavailable);
}

TEST(EtcdMemberFromJsonTest, ParsesDecimalIds) {
  auto member = EtcdMemberFromJson(nlohmann::json::parse(
      R"({"ID":"18446744073709551615","name":"m","peerURLs":["https://a:2380"],"isLearner":true})"));
  ASSERT_TRUE(member);
  EXPECT_EQ(member->id, 18446744073709551615u);
  EXPECT_TRUE(member->is_learner);
  EXPECT_TRUE(member->client_urls.empty());
  EXPECT_FALSE(EtcdMemberFromJson(nlohmann::json::parse(R"({"ID":"12x"})")));
  EXPECT_FALSE(EtcdMemberFromJson(nlohmann::json::parse(R"({"ID":"-1"})")));
}

// Answers from a script, for the retry rules without a cluster in that state.
class ScriptedHttp final : public HttpClient {
 public:
  std::vector<HttpResponse> answers;
  std::vector<std::string> urls;
  Result<HttpResponse> Do(const HttpRequest& request) override {
    urls.push_back(request.url);
    if (answers.empty()) return Unavailable("connection refused");
    HttpResponse next = answers.front();
    answers.erase(answers.begin());
    return next;
  }
};

class StepClock final : public Clock {
 public:
  TimePoint Now() const override { return now_; }
  void Sleep(std::chrono::milliseconds duration) override { now_ += duration; }

 private:
  TimePoint now_{};
};

TEST(EtcdClientRetryTest, RetriesUnhealthyClusterThenSucceeds) {
  auto http = std::make_unique<ScriptedHttp>();
  ScriptedHttp* script = http.get();
  const std::string unhealthy =
      R"({"error":"etcdserver: unhealthy cluster","code":14,"message":"etcdserver: unhealthy cluster"})";
  script->answers = {
      {503, unhealthy, {}},
      {503, unhealthy, {}},
      {200,
       R"({"member":{"ID":"42","peerURLs":["https://b:2380"]},"members":[{"ID":"42"},{"ID":"7","name":"a"}]})",
       {}}};
  StepClock clock;
  EtcdClientConfig config;
  config.endpoints = {"https://a:2379"};
  config.clock = &clock;
  EtcdClient client(config, std::move(http));
  auto added = client.MemberAdd({"https://b:2380"}, false);
  ASSERT_TRUE(added) << added.error().message();
  EXPECT_EQ(added->added.id, 42u);
  EXPECT_EQ(added->members.size(), 2u);
  EXPECT_EQ(script->urls.size(), 3u);
  EXPECT_EQ(script->urls[0], "https://a:2379/v3/cluster/member/add");
}

TEST(EtcdClientRetryTest, OtherErrorsAreNotRetried) {
  auto http = std::make_unique<ScriptedHttp>();
  ScriptedHttp* script = http.get();
  script->answers = {
      {404,
       R"({"error":"etcdserver: member not found","code":5,"message":"etcdserver: member not found"})",
       {}}};
  StepClock clock;
  EtcdClientConfig config;
  config.endpoints = {"https://a:2379", "https://b:2379"};
  config.clock = &clock;
  EtcdClient client(config, std::move(http));
  Status status = client.MemberRemove(9);
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "etcdserver: member not found");
  EXPECT_EQ(script->urls.size(), 1u);
}

TEST(EtcdClientRetryTest, GivesUpAtTheDeadline) {
  auto http = std::make_unique<ScriptedHttp>();
  ScriptedHttp* script = http.get();
  StepClock clock;
  EtcdClientConfig config;
  config.endpoints = {"https://a:2379", "https://b:2379"};
  config.clock = &clock;
  config.retry_timeout = std::chrono::seconds(2);
  EtcdClient client(config, std::move(http));  // owns `script`
  Status status = client.MemberPromote(9);
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  // Both endpoints on every attempt: at 0, 0.5, 1, 1.5 and 2 s.
  EXPECT_EQ(script->urls.size(), 10u);
  EXPECT_EQ(script->urls[1], "https://b:2379/v3/cluster/member/promote");
}

// The events a client's retries emit.
class EtcdRetrySink final : public EventSink {
 public:
  std::vector<nlohmann::json> events;
  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>&) override {
    fields["kind"] = std::string(kind);
    events.push_back(std::move(fields));
  }
};

TEST(EtcdClientRetryTest, EachRetryIsAnEventWithTheLastEndpointsError) {
  auto http = std::make_unique<ScriptedHttp>();
  ScriptedHttp* script = http.get();
  const std::string unhealthy =
      R"({"error":"etcdserver: unhealthy cluster","code":14,"message":"etcdserver: unhealthy cluster"})";
  script->answers = {{503, unhealthy, {}}, {503, unhealthy, {}}, {200, R"({"members":[]})", {}}};
  StepClock clock;
  EtcdRetrySink sink;
  EtcdClientConfig config;
  config.endpoints = {"https://a:2379"};
  config.clock = &clock;
  config.events = Events(&sink);
  EtcdClient client(config, std::move(http));
  ASSERT_TRUE(client.MemberList());
  ASSERT_EQ(sink.events.size(), 2u);
  EXPECT_EQ(
      sink.events[0],
      nlohmann::json({{"kind", "Retry"},
                      {"what", "etcd-api"},
                      {"attempt", 1},
                      {"reason", "etcd /v3/cluster/member/list: etcdserver: unhealthy cluster"},
                      {"delaySeconds", 0.5}}));
  EXPECT_EQ(sink.events[1]["attempt"], 2);
}

}  // namespace
}  // namespace kkadm::util
