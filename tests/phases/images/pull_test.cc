#include "app/phases/images/pull.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_container_runtime.h"
#include "tests/fakes/log_capture.h"

namespace kkadm::phases::images {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// containerd 1.6's words (gRPC UNKNOWN) for a registry that answered 503, and for a missing tag.
constexpr const char* k503 =
    "rpc error: code = Unknown desc = failed to pull and unpack image "
    "\"127.0.0.1:5000/pause:3.10\":"
    " failed to resolve reference \"127.0.0.1:5000/pause:3.10\": pulling from host 127.0.0.1:5000 "
    "failed with status code [manifests 3.10]: 503 Service Unavailable";
constexpr const char* kReset =
    "rpc error: code = Unknown desc = failed to pull and unpack image \"r/x:1\": failed to resolve "
    "reference \"r/x:1\": failed to do request: Head \"http://r/v2/x/manifests/1\": read tcp "
    "127.0.0.1:1->127.0.0.1:2: read: connection reset by peer";
constexpr const char* kMissing =
    "rpc error: code = Unknown desc = failed to pull and unpack image \"r/x:1\": failed to resolve "
    "reference \"r/x:1\": r/x:1: not found";

class RecordingSink final : public util::EventSink {
 public:
  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>&) override {
    fields["kind"] = std::string(kind);
    events.push_back(fields);
  }
  std::vector<nlohmann::json> events;
};

class PullTest : public ::testing::Test {
 protected:
  PullContext Context() { return PullContext{runtime_, clock_, {}, util::Events(&sink_)}; }

  testing::FakeContainerRuntime runtime_;
  testing::FakeClock clock_;
  RecordingSink sink_;
  std::ostringstream output_;
  util::Printer printer_{output_};
};

TEST(IsTransientPullErrorTest, RuntimeUnreachableAndRegistryFailuresAreTransient) {
  EXPECT_TRUE(IsTransientPullError(Unavailable("rpc error: code = Unavailable desc = x")));
  EXPECT_TRUE(IsTransientPullError(Status(StatusCode::kInternal, k503)));
  EXPECT_TRUE(IsTransientPullError(Status(StatusCode::kInternal, kReset)));
  EXPECT_TRUE(IsTransientPullError(
      Status(StatusCode::kInternal,
             "unexpected status code https://r/v2/x/blobs/sha256:1: 502 Bad Gateway")));
  EXPECT_FALSE(IsTransientPullError(Status(StatusCode::kInternal, kMissing)));
  EXPECT_FALSE(IsTransientPullError(NotFound("rpc error: code = NotFound desc = r/x:1 not found")));
  EXPECT_FALSE(IsTransientPullError(
      Status(StatusCode::kInternal, "unexpected status code https://r/v2/x: 401 Unauthorized")));
  EXPECT_FALSE(IsTransientPullError(InvalidArgument("rpc error: code = InvalidArgument desc = x")));
}

TEST_F(PullTest, PullsWhatIsMissingAndLeavesWhatIsPresent) {
  runtime_.images["r/etcd:3.5.16-0"] = "sha256:e";
  ASSERT_TRUE(
      PullImages(Context(), {"r/kube-apiserver:v1.32.0", "r/etcd:3.5.16-0"}, printer_).ok());
  EXPECT_EQ(output_.str(),
            "[config/images] Pulled r/kube-apiserver:v1.32.0\n"
            "[config/images] Image r/etcd:3.5.16-0 already present on machine\n");
  EXPECT_THAT(runtime_.calls,
              ElementsAre("ImageStatus r/kube-apiserver:v1.32.0",
                          "PullImage r/kube-apiserver:v1.32.0", "ImageStatus r/etcd:3.5.16-0"));
  EXPECT_EQ(clock_.slept().count(), 0);
  ASSERT_EQ(sink_.events.size(), 2u);  // one ImagePull event per image, no Retry
  EXPECT_EQ(sink_.events[0], nlohmann::json({{"kind", "ImagePull"},
                                             {"image", "r/kube-apiserver:v1.32.0"},
                                             {"result", "pulled"}}));
  EXPECT_EQ(
      sink_.events[1],
      nlohmann::json({{"kind", "ImagePull"}, {"image", "r/etcd:3.5.16-0"}, {"result", "present"}}));
}

TEST_F(PullTest, RetriesTransientFailuresWithGrowingPausesAndReportsEachRetry) {
  testing::LogCapture log;
  runtime_.errors["PullImage"] = {Status(StatusCode::kInternal, k503),
                                  Unavailable("rpc error: code = Unavailable desc = gone")};
  ASSERT_TRUE(PullImages(Context(), {"r/pause:3.10"}, printer_).ok());
  EXPECT_EQ(output_.str(), "[config/images] Pulled r/pause:3.10\n");
  EXPECT_EQ(clock_.slept(), std::chrono::seconds(3));  // 1s, then 2s
  EXPECT_THAT(log.text(), HasSubstr("W pulling image \"r/pause:3.10\" failed (attempt 1 of 5), "
                                    "retrying in 1s: rpc error: code = Unknown"));
  EXPECT_THAT(log.text(), HasSubstr("(attempt 2 of 5), retrying in 2s: rpc error: code = "
                                    "Unavailable desc = gone"));
  ASSERT_EQ(sink_.events.size(), 3u);  // two retries, then the image pulled
  EXPECT_EQ(sink_.events[2]["kind"], "ImagePull");
  EXPECT_EQ(sink_.events[0]["kind"], "Retry");
  EXPECT_EQ(sink_.events[0]["what"], "image-pull");
  EXPECT_EQ(sink_.events[0]["attempt"], 1);
  EXPECT_EQ(sink_.events[0]["delaySeconds"], 1.0);
  EXPECT_THAT(sink_.events[0]["reason"].get<std::string>(),
              HasSubstr("r/pause:3.10: rpc error: code = Unknown"));
  EXPECT_EQ(sink_.events[1]["attempt"], 2);
  EXPECT_EQ(sink_.events[1]["delaySeconds"], 2.0);
}

TEST_F(PullTest, GivesUpAfterTheLastAttemptWithTheLastError) {
  for (int i = 0; i < 6; ++i)
    runtime_.errors["PullImage"].push_back(Status(StatusCode::kInternal, k503));
  Status s = PullImages(Context(), {"r/pause:3.10", "r/etcd:3.5.16-0"}, printer_);
  EXPECT_EQ(s.code(), StatusCode::kInternal);
  EXPECT_THAT(s.message(), HasSubstr("failed to pull image \"r/pause:3.10\": rpc error:"));
  EXPECT_THAT(s.message(), HasSubstr("503 Service Unavailable (after 5 attempts)"));
  EXPECT_EQ(clock_.slept(), std::chrono::seconds(1 + 2 + 4 + 8));
  EXPECT_EQ(sink_.events.size(), 4u);
  EXPECT_EQ(output_.str(), "");  // the first failure stops the run
}

TEST_F(PullTest, AMissingImageFailsAtOnceNamingIt) {
  runtime_.errors["PullImage"] = {Status(StatusCode::kInternal, kMissing)};
  Status s = PullImages(Context(), {"r/x:1"}, printer_);
  EXPECT_EQ(s.message(), std::string("failed to pull image \"r/x:1\": ") + kMissing);
  EXPECT_EQ(clock_.slept().count(), 0);
  EXPECT_THAT(sink_.events, IsEmpty());
}

TEST_F(PullTest, PreflightFollowsThePullPolicyAndCollectsEveryFailure) {
  runtime_.images["r/a:1"] = "sha256:a";
  EXPECT_THAT(PullForPreflight(Context(), {"r/a:1", "r/b:1"}, "Never"), IsEmpty());
  EXPECT_THAT(runtime_.calls, IsEmpty());

  EXPECT_THAT(PullForPreflight(Context(), {"r/a:1", "r/b:1"}, "IfNotPresent"), IsEmpty());
  EXPECT_THAT(runtime_.calls,
              ElementsAre("ImageStatus r/a:1", "ImageStatus r/b:1", "PullImage r/b:1"));

  runtime_.calls.clear();
  runtime_.errors["PullImage"] = {Status(StatusCode::kInternal, kMissing)};
  EXPECT_THAT(PullForPreflight(Context(), {"r/a:1", "r/b:1"}, "Always"),
              ElementsAre(std::string("failed to pull image r/a:1: ") + kMissing));
  EXPECT_THAT(runtime_.calls, ElementsAre("PullImage r/a:1", "PullImage r/b:1"));

  runtime_.calls.clear();
  runtime_.errors["ImageStatus"] = {Unavailable("rpc error: code = Unavailable desc = down")};
  EXPECT_THAT(PullForPreflight(Context(), {"r/a:1"}, "IfNotPresent"),
              ElementsAre("failed to check if image r/a:1 exists: rpc error: code = Unavailable "
                          "desc = down"));
  EXPECT_THAT(runtime_.calls, ElementsAre("ImageStatus r/a:1"));  // no pull, no retry pauses
}

TEST_F(PullTest, ADeadRuntimeIsOneErrorPerImageWithoutRetries) {
  const Status down = Unavailable("rpc error: code = Unavailable desc = connect: no such file");
  for (int i = 0; i < 2; ++i) {
    runtime_.errors["PullImage"].push_back(down);
    runtime_.errors["Version"].push_back(down);
  }
  EXPECT_THAT(PullForPreflight(Context(), {"r/a:1", "r/b:1"}, "Always"),
              ElementsAre("failed to pull image r/a:1: container runtime is not running: rpc "
                          "error: code = Unavailable desc = connect: no such file",
                          "failed to pull image r/b:1: container runtime is not running: rpc "
                          "error: code = Unavailable desc = connect: no such file"));
  EXPECT_THAT(runtime_.calls,
              ElementsAre("PullImage r/a:1", "Version", "PullImage r/b:1", "Version"));
  EXPECT_EQ(clock_.slept().count(), 0);
  EXPECT_THAT(sink_.events, IsEmpty());
}

TEST_F(PullTest, AnUnavailablePullFromARuntimeThatStillAnswersIsRetried) {
  runtime_.errors["PullImage"] = {Unavailable("rpc error: code = Unavailable desc = busy")};
  EXPECT_THAT(PullForPreflight(Context(), {"r/a:1"}, "Always"), IsEmpty());
  EXPECT_THAT(runtime_.calls, ElementsAre("PullImage r/a:1", "Version", "PullImage r/a:1"));
  EXPECT_EQ(clock_.slept(), std::chrono::seconds(1));
}

}  // namespace
}  // namespace kkadm::phases::images
