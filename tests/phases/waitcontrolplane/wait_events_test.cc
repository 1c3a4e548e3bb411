// A wait as events: WaitStarted with its limit, a Retry per failed probe with the reason and the
// pause, WaitFinished ready or timed out.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/phases/waitcontrolplane/wait.h"
#include "tests/fakes/fake_clock.h"

namespace kkadm::phases {
namespace {

using std::chrono::milliseconds;

class WaitEventSink final : public util::EventSink {
 public:
  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>&) override {
    fields["kind"] = kind;
    events.push_back(std::move(fields));
  }
  std::vector<nlohmann::json> events;
};

TEST(WaitEventsTest, EachFailedProbeIsARetryWithItsReason) {
  testing::FakeClock clock;
  WaitEventSink sink;
  const WaitReport report{util::Events(&sink), "api-server", "/livez"};
  int calls = 0;
  auto waited = PollUntilHealthy(
      clock, [&] { return ++calls < 3 ? Unavailable("connection refused") : Status::Ok(); },
      milliseconds(4000), milliseconds(100), &report);
  ASSERT_TRUE(waited.has_value());
  ASSERT_EQ(sink.events.size(), 4u);
  EXPECT_EQ(sink.events[0], (nlohmann::json{{"kind", "WaitStarted"},
                                            {"what", "api-server"},
                                            {"target", "/livez"},
                                            {"timeoutSeconds", 4.0}}));
  EXPECT_EQ(sink.events[1], (nlohmann::json{{"kind", "Retry"},
                                            {"what", "api-server"},
                                            {"attempt", 1},
                                            {"reason", "connection refused"},
                                            {"delaySeconds", 0.1}}));
  EXPECT_EQ(sink.events[2]["attempt"], 2);
  EXPECT_EQ(sink.events[3], (nlohmann::json{{"kind", "WaitFinished"},
                                            {"what", "api-server"},
                                            {"result", "ready"},
                                            {"durationSeconds", 0.2}}));
}

TEST(WaitEventsTest, AWaitThatOutlivesItsLimitEndsTimedOutWithTheLastError) {
  testing::FakeClock clock;
  WaitEventSink sink;
  const WaitReport report{util::Events(&sink), "kubelet", "http://127.0.0.1:10248/healthz"};
  auto waited = PollUntilHealthy(
      clock, [] { return Unavailable("refused"); }, milliseconds(250), milliseconds(100), &report);
  ASSERT_FALSE(waited.has_value());
  const nlohmann::json& last = sink.events.back();
  EXPECT_EQ(last["kind"], "WaitFinished");
  EXPECT_EQ(last["result"], "timeout");
  EXPECT_EQ(last["error"], "refused");
  EXPECT_GE(last["durationSeconds"].get<double>(), 0.25);
  // Started, a retry per pause before the deadline, finished.
  EXPECT_EQ(sink.events.size(), 2u + 3u);
}

}  // namespace
}  // namespace kkadm::phases
