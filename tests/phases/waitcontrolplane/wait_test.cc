// Tests for wait-control-plane: detection latency against a fake clock, timeouts and messages.
#include "app/phases/waitcontrolplane/wait.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/init/wait_control_plane_phase.h"
#include "app/phases/waitcontrolplane/waiter.h"
#include "tests/fakes/log_capture.h"
#include "tests/phases/cluster_phase_fixture.h"

namespace kkadm::phases {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;

TEST(FormatGoDurationTest, MatchesGo) {
  EXPECT_EQ(FormatGoDuration(std::chrono::minutes(4)), "4m0s");
  EXPECT_EQ(FormatGoDuration(std::chrono::hours(1)), "1h0m0s");
  EXPECT_EQ(FormatGoDuration(std::chrono::nanoseconds(501583324)), "501.583324ms");
  EXPECT_EQ(FormatGoDuration(std::chrono::nanoseconds(4001608291)), "4.001608291s");
  EXPECT_EQ(FormatGoDuration(milliseconds(1500)), "1.5s");
  EXPECT_EQ(FormatGoDuration(milliseconds(0)), "0s");
  EXPECT_EQ(FormatGoDuration(std::chrono::nanoseconds(1500)), "1.5µs");
  EXPECT_EQ(FormatGoDuration(std::chrono::nanoseconds(7)), "7ns");
  EXPECT_EQ(FormatGoDuration(milliseconds(90061000)), "25h1m1s");
}

// For several onsets, the probe turns healthy at start+onset; PollUntilHealthy must notice
// within 100 ms of it.
TEST(PollUntilHealthyTest, DetectsHealthWithin100ms) {
  for (int onset_ms : {0, 1, 99, 100, 101, 1234, 59999}) {
    testing::FakeClock clock;
    const auto t0 = clock.Now() + milliseconds(onset_ms);
    int calls = 0;
    auto elapsed = PollUntilHealthy(
        clock,
        [&] {
          ++calls;
          return clock.Now() >= t0 ? Status::Ok() : Unavailable("connection refused");
        },
        std::chrono::minutes(4));
    ASSERT_TRUE(elapsed.has_value()) << onset_ms;
    EXPECT_GE(*elapsed, milliseconds(onset_ms));
    EXPECT_LE(*elapsed - milliseconds(onset_ms), milliseconds(100)) << onset_ms;
    EXPECT_LE(calls, onset_ms / 100 + 2);
  }
}

// -v 5 says each retry, how long until the next probe (never past the deadline) and why.
TEST(PollUntilHealthyTest, DebugLogSaysEachRetryAndWhy) {
  testing::LogCapture log(spdlog::level::debug);
  testing::FakeClock clock;
  auto result = PollUntilHealthy(
      clock, [] { return Unavailable("connection refused"); }, milliseconds(150),
      milliseconds(100));
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(log.text(),
            "D not healthy yet, probing again in 100 ms: connection refused\n"
            "D not healthy yet, probing again in 51 ms: connection refused\n");
}

TEST(PollUntilHealthyTest, TimesOutWithTheLastError) {
  testing::FakeClock clock;
  const auto start = clock.Now();
  auto result = PollUntilHealthy(
      clock, [] { return Unavailable("connection refused"); }, milliseconds(1000));
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code(), StatusCode::kUnavailable);
  EXPECT_EQ(result.error().message(), "connection refused");
  EXPECT_GE(clock.Now() - start, milliseconds(1000));
  EXPECT_LE(clock.Now() - start, milliseconds(1101));
}

class WaitControlPlanePhaseTest : public testing::ClusterPhasesTest {};

TEST_F(WaitControlPlanePhaseTest, WaitsForKubeletThenApiServer) {
  const auto start = clock_.Now();
  std::vector<std::string> urls;
  AnswerGets([&](const std::string& url) -> Result<std::string> {
    urls.push_back(url);
    if (clock_.Now() < start + milliseconds(500)) return Unavailable("connection refused");
    return std::string("ok");
  });
  client_.raw = [&](const std::string&) -> Result<std::string> {
    if (clock_.Now() < start + milliseconds(4000)) return Unavailable("connection refused");
    return std::string("ok");
  };
  ASSERT_TRUE(RunTree(NewWaitControlPlanePhase(data_)).ok());
  EXPECT_EQ(urls.front(), "http://127.0.0.1:10248/healthz");
  EXPECT_EQ(out_.str(),
            "[wait-control-plane] Waiting for the kubelet to boot up the control plane as static "
            "Pods from directory \"/etc/kubernetes/manifests\"\n"
            "[kubelet-check] Waiting for a healthy kubelet at http://127.0.0.1:10248/healthz. This "
            "can take up to 4m0s\n"
            "[kubelet-check] The kubelet is healthy after 500ms\n"
            "[api-check] Waiting for a healthy API server. This can take up to 4m0s\n"
            "[api-check] The API server is healthy after 3.5s\n");
  EXPECT_EQ(client_.calls().front().verb, "GETRAW");
  EXPECT_EQ(client_.calls().front().path, "/livez");
  EXPECT_FALSE(
      client_
          .Object("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/kubeadm:cluster-admins")
          .is_null());
}

TEST_F(WaitControlPlanePhaseTest, KubeletTimeoutPrintsTroubleshooting) {
  data_.cfg.timeouts.kubelet_health_check = milliseconds(2000);
  AnswerGets([](const std::string&) -> Result<std::string> {
    return Unavailable("dial tcp 127.0.0.1:10248: connect: connection refused");
  });
  const auto start = clock_.Now();
  Status s = RunTree(NewWaitControlPlanePhase(data_));
  EXPECT_EQ(s.message(), "could not initialize a Kubernetes cluster");
  EXPECT_GE(clock_.Now() - start, milliseconds(2000));
  EXPECT_LE(clock_.Now() - start, milliseconds(2101));
  const std::string text = out_.str();
  EXPECT_THAT(text, HasSubstr("This can take up to 2s\n"));
  EXPECT_THAT(text,
              HasSubstr("The HTTP call equal to 'curl -sSL http://127.0.0.1:10248/healthz' "
                        "returned error: dial tcp 127.0.0.1:10248: connect: connection refused"));
  EXPECT_THAT(text, HasSubstr("\t- The kubelet is not running\n"));
  EXPECT_THAT(text, HasSubstr("\t- 'systemctl status kubelet'\n\t- 'journalctl -xeu kubelet'\n\n"
                              "Additionally, a control plane component may have crashed"));
  EXPECT_THAT(text,
              HasSubstr("\t- 'crictl --runtime-endpoint unix:///var/run/containerd/containerd.sock "
                        "ps -a | grep kube | grep -v pause'\n"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("[api-check]")));
  EXPECT_TRUE(client_.calls().empty());
}

TEST_F(WaitControlPlanePhaseTest, ApiServerTimeout) {
  AnswerGets([](const std::string&) -> Result<std::string> { return std::string("ok"); });
  client_.raw = [](const std::string&) -> Result<std::string> { return Unavailable("EOF"); };
  Status s = RunTree(NewWaitControlPlanePhase(data_));
  EXPECT_EQ(s.message(), "could not initialize a Kubernetes cluster");
  EXPECT_THAT(out_.str(), HasSubstr("the API server is not healthy after 4m0s: EOF"));
  EXPECT_GE(clock_.slept(), std::chrono::minutes(4));
}

// The dry run's waiter, as `kkadm init --dry-run` has it: it says what it would wait for, asks
// nothing and grants nothing.
TEST_F(WaitControlPlanePhaseTest, DryRunWaitsForNothing) {
  DryRunWaiter dry(printer_);
  data_.waiter = &dry;
  AnswerGets([](const std::string& url) -> Result<std::string> {
    ADD_FAILURE() << "GET " << url;
    return std::string("ok");
  });
  ASSERT_TRUE(RunTree(NewWaitControlPlanePhase(data_)).ok());
  EXPECT_EQ(out_.str(),
            "[dryrun] Would wait for the kubelet to be healthy\n"
            "[dryrun] Would wait for the API Server's /livez endpoint to return 'ok'\n");
  EXPECT_TRUE(client_.calls().empty());
  EXPECT_EQ(clock_.slept(), milliseconds(0));
}

}  // namespace
}  // namespace kkadm::phases
