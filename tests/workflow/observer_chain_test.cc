// ObserverChain under a real Runner: planning outermost first, starts and ends nested like scopes,
// an inner observer's error failing the phase and reaching the outer ones as its outcome.
#include "app/workflow/observer_chain.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/workflow/runner.h"
#include "tests/workflow/recording_phase.h"

namespace kkadm::workflow {
namespace {

using testing::Log;
using testing::P;

// Writes what it is told into a log shared by the chain, as "<name> <event> <path> [<outcome>]".
class LoggingObserver final : public RunObserver {
 public:
  LoggingObserver(std::string name, std::shared_ptr<Log> log) : name_(std::move(name)), log_(log) {}

  std::optional<std::string> leave_out;      // a path this observer's Plan leaves out
  std::optional<std::string> fail_start_of;  // a path whose start this observer refuses
  std::optional<std::string> fail_end_of;    // a path whose end this observer turns into an error

  Result<std::vector<bool>> Plan(const std::vector<PhaseEntry>& entries,
                                 const std::vector<bool>& selected, bool) override {
    std::vector<bool> planned = selected;
    std::string seen;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      if (leave_out && entries[i].path == *leave_out) planned[i] = false;
      if (selected[i]) seen += " " + entries[i].path;
    }
    log_->push_back(name_ + " plan" + seen);
    return planned;
  }
  Status PhaseStarting(const PhaseEntry& entry) override {
    log_->push_back(name_ + " start " + entry.path);
    if (fail_start_of && entry.path == *fail_start_of) return Aborted(name_ + " refused");
    return Status::Ok();
  }
  Status PhaseEnded(const PhaseEntry& entry, const Status& outcome, bool) override {
    log_->push_back(name_ + " end " + entry.path + (outcome.ok() ? "" : " " + outcome.message()));
    if (outcome.ok() && fail_end_of && entry.path == *fail_end_of) {
      return Aborted(name_ + " failed after it");
    }
    return outcome;
  }
  Status RunEnded(const Status& outcome) override {
    log_->push_back(name_ + " run-ended" + (outcome.ok() ? "" : " " + outcome.message()));
    return outcome;
  }

 private:
  std::string name_;
  std::shared_ptr<Log> log_;
};

struct Fixture {
  std::shared_ptr<Log> log = std::make_shared<Log>();
  LoggingObserver outer{"outer", log};
  LoggingObserver inner{"inner", log};
  ObserverChain chain;
  Runner runner{{P(log, "a"), P(log, "b")}};

  Fixture() {
    chain.Add(outer);
    chain.Add(inner);
    runner.SetObserver(&chain);
  }
};

TEST(ObserverChainTest, PlansOutermostFirstAndNestsStartsAndEnds) {
  Fixture f;
  f.outer.leave_out = "a";
  ASSERT_TRUE(f.runner.Run({}).ok());
  const Log want = {"outer plan a b", "inner plan b", "outer start b",   "inner start b",  "b",
                    "inner end b",    "outer end b",  "inner run-ended", "outer run-ended"};
  EXPECT_EQ(*f.log, want);
}

TEST(ObserverChainTest, ARefusedStartEndsTheStartedOnesWithItsError) {
  Fixture f;
  f.inner.fail_start_of = "a";
  Status status = f.runner.Run({});
  EXPECT_EQ(status.message(), "error execution phase a: inner refused");
  EXPECT_EQ(f.runner.failed_phase(), "a");
  const Log want = {"outer plan a b",
                    "inner plan a b",
                    "outer start a",
                    "inner start a",
                    "outer end a inner refused",
                    "inner run-ended error execution phase a: inner refused",
                    "outer run-ended error execution phase a: inner refused"};
  EXPECT_EQ(*f.log, want);
}

TEST(ObserverChainTest, AnInnerErrorAfterThePhaseFailsItAndIsWhatTheOuterOneSees) {
  Fixture f;
  f.inner.fail_end_of = "a";
  Status status = f.runner.Run({});
  EXPECT_EQ(status.message(), "error execution phase a: inner failed after it");
  EXPECT_EQ(f.runner.failed_phase(), "a");
  const Log want = {"outer plan a b",
                    "inner plan a b",
                    "outer start a",
                    "inner start a",
                    "a",
                    "inner end a",
                    "outer end a inner failed after it",
                    "inner run-ended error execution phase a: inner failed after it",
                    "outer run-ended error execution phase a: inner failed after it"};
  EXPECT_EQ(*f.log, want);
}

}  // namespace
}  // namespace kkadm::workflow
