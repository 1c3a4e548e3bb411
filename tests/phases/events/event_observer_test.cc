// EventObserver on a Runner of synthetic phases: phase events in order with durations (a parent's
// is its subtree's), skips, failures, and the timing table of a whole run.
#include "app/phases/events/event_observer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "app/workflow/runner.h"
#include "tests/fakes/fake_clock.h"

namespace kkadm::phases::events {
namespace {

using std::chrono::milliseconds;

class RecordingSink final : public util::EventSink {
 public:
  void Emit(std::string_view kind, nlohmann::json fields,
            const std::vector<std::string>&) override {
    fields["kind"] = kind;
    events.push_back(std::move(fields));
  }
  // "Kind phase" per event, e.g. "PhaseFinished certs".
  std::vector<std::string> Lines() const {
    std::vector<std::string> out;
    for (const auto& e : events) {
      out.push_back(e["kind"].get<std::string>() + " " + e.value("phase", std::string()));
    }
    return out;
  }
  std::vector<nlohmann::json> events;
};

// a (200 ms); b with children x (300 ms) and y (100 ms, failing when asked); c skipped by its
// run condition; d (50 ms).
std::vector<workflow::Phase> TreeWithChildren(testing::FakeClock& clock, bool fail_last) {
  auto timed = [&clock](const std::string& name, int ms, bool fail) {
    workflow::Phase p;
    p.name = name;
    p.run = [&clock, ms, fail] {
      clock.Advance(milliseconds(ms));
      return fail ? Unavailable("y broke") : Status::Ok();
    };
    return p;
  };
  workflow::Phase b;
  b.name = "b";
  b.children = {timed("x", 300, false), timed("y", 100, fail_last)};
  workflow::Phase c;
  c.name = "c";
  c.run_if = []() -> Result<bool> { return false; };
  return {timed("a", 200, false), b, c, timed("d", 50, false)};
}

struct TreeRun {
  explicit TreeRun(bool fail_y = false)
      : runner(TreeWithChildren(clock, fail_y)), observer(clock, util::Events(&sink), &printer) {
    runner.SetObserver(&observer);
  }
  testing::FakeClock clock;
  RecordingSink sink;
  std::ostringstream table;
  util::Printer printer{table};
  workflow::Runner runner;
  EventObserver observer;
};

TEST(EventObserverTest, AParentFinishesAfterItsChildrenWithTheirDuration) {
  TreeRun run;
  ASSERT_TRUE(run.runner.Run({}).ok());
  EXPECT_EQ(run.sink.Lines(),
            (std::vector<std::string>{"PhaseStarted a", "PhaseFinished a", "PhaseStarted b",
                                      "PhaseStarted b/x", "PhaseFinished b/x", "PhaseStarted b/y",
                                      "PhaseFinished b/y", "PhaseFinished b", "PhaseStarted c",
                                      "PhaseSkipped c", "PhaseStarted d", "PhaseFinished d"}));
  EXPECT_EQ(run.sink.events[1]["durationSeconds"], 0.2);
  EXPECT_EQ(run.sink.events[7]["durationSeconds"], 0.4);
  EXPECT_EQ(run.sink.events[9]["reason"], "condition");
  EXPECT_EQ(run.table.str(),
            "[timing] Phase durations:\n"
            "PHASE  DURATION\n"
            "a      0.200s\n"
            "b      0.400s\n"
            "c      skipped\n"
            "d      0.050s\n"
            "total  0.650s\n");
}

TEST(EventObserverTest, AFailedChildFailsItsParentAndNoTableIsPrinted) {
  TreeRun run(/*fail_y=*/true);
  EXPECT_FALSE(run.runner.Run({}).ok());
  const std::vector<std::string> lines = run.sink.Lines();
  ASSERT_EQ(lines.size(), 8u);
  EXPECT_EQ(lines[6], "PhaseFailed b/y");
  EXPECT_EQ(lines[7], "PhaseFailed b");
  EXPECT_EQ(run.sink.events[6]["error"], "error execution phase b/y: y broke");
  EXPECT_EQ(run.sink.events[7]["durationSeconds"], 0.4);
  // A failure's stderr ends with its one error line; the figures are in the events.
  EXPECT_EQ(run.table.str(), "");
}

TEST(EventObserverTest, PhasesLeftOutOfTheRunAreSkippedAsNotPlanned) {
  TreeRun run;
  workflow::RunOptions options;
  options.skip_phases = {"b"};
  ASSERT_TRUE(run.runner.Run(options).ok());
  const std::vector<std::string> lines = run.sink.Lines();
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "PhaseSkipped b");
  EXPECT_EQ(run.sink.events[0]["reason"], "not-planned");
  EXPECT_EQ(lines[1], "PhaseSkipped b/x");
  EXPECT_EQ(lines[2], "PhaseSkipped b/y");
  EXPECT_NE(run.table.str().find("b      skipped\n"), std::string::npos) << run.table.str();
}

TEST(EventObserverTest, APhaseCommandPrintsNoTableAndNoSkipsOfOtherPhases) {
  TreeRun run;
  workflow::RunOptions options;
  options.filter_path = "b";
  ASSERT_TRUE(run.runner.Run(options).ok());
  EXPECT_EQ(run.sink.Lines(),
            (std::vector<std::string>{"PhaseStarted b", "PhaseStarted b/x", "PhaseFinished b/x",
                                      "PhaseStarted b/y", "PhaseFinished b/y", "PhaseFinished b"}));
  EXPECT_EQ(run.table.str(), "");
}

}  // namespace
}  // namespace kkadm::phases::events
