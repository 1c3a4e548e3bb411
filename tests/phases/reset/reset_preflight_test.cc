// The reset confirmation (with and without a terminal, every answer) and the root check.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/phases/preflight/confirm_reset.h"
#include "app/phases/reset/preflight_phase.h"
#include "tests/phases/reset/reset_fixture.h"

namespace kkadm::phases::reset {
namespace {

using ::testing::HasSubstr;

constexpr const char* kWarning =
    "[reset] WARNING: Changes made to this host by 'kubeadm init' or 'kubeadm join' will be "
    "reverted.\n";
constexpr const char* kPrompt = "[reset] Are you sure you want to proceed? [y/N]: ";

class ResetPreflightTest : public testing::ResetFixture {};

// --force and --dry-run (the command's decision, tests/cmd/reset_test.cc) want no confirmation.
TEST_F(ResetPreflightTest, NoConfirmationWantedDoesNotAsk) {
  data_.confirm = false;
  terminal_.is_terminal = false;
  machine_.euid = 0;
  EXPECT_TRUE(RunResetPreflight(data_).ok());
  EXPECT_EQ(terminal_.reads, 0);
  EXPECT_EQ(Output(), "[preflight] Running pre-flight checks\n");
}

TEST_F(ResetPreflightTest, YesGoesOn) {
  for (const char* answer : {"y", "Y", "  y  "}) {
    terminal_.lines = {answer};
    EXPECT_TRUE(preflight::ConfirmReset(terminal_, printer_).ok()) << answer;
  }
  EXPECT_THAT(Output(), HasSubstr(std::string(kWarning) + kPrompt));
}

TEST_F(ResetPreflightTest, AnythingElseAborts) {
  for (const char* answer : {"n", "N", "", "yes", "no", "yy"}) {
    terminal_.lines = {answer};
    Status s = preflight::ConfirmReset(terminal_, printer_);
    EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << answer;
    EXPECT_EQ(s.message(), "won't proceed; the user didn't answer (Y|y) in order to continue")
        << answer;
  }
  terminal_.lines.clear();  // end of input
  EXPECT_FALSE(preflight::ConfirmReset(terminal_, printer_).ok());
}

// As in kubeadm, `echo y | kkadm reset` confirms.
TEST_F(ResetPreflightTest, AnAnswerOnAPipeIsAnAnswer) {
  terminal_.is_terminal = false;
  terminal_.lines = {"y"};
  EXPECT_TRUE(preflight::ConfirmReset(terminal_, printer_).ok());
  terminal_.lines = {"n"};
  EXPECT_EQ(preflight::ConfirmReset(terminal_, printer_).message(),
            "won't proceed; the user didn't answer (Y|y) in order to continue");
}

// </dev/null, cloud-init: the prompt, then at once a refusal that names --force.
TEST_F(ResetPreflightTest, NoTerminalAndNoAnswerRefusesAtOnce) {
  terminal_.is_terminal = false;
  Status s = preflight::ConfirmReset(terminal_, printer_);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("not a terminal and gave no answer"));
  EXPECT_THAT(s.message(), HasSubstr("--force"));
  EXPECT_EQ(terminal_.reads, 1);
  EXPECT_EQ(Output(), std::string(kWarning) + kPrompt + "\n");
}

TEST_F(ResetPreflightTest, PhaseRunsTheRootCheckAfterTheAnswer) {
  data_.confirm = false;
  machine_.euid = 0;
  EXPECT_TRUE(RunResetPreflight(data_).ok());
  EXPECT_EQ(Output(), "[preflight] Running pre-flight checks\n");

  machine_.euid = 1000;
  Status s = RunResetPreflight(data_);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(Output(), HasSubstr("[ERROR IsPrivilegedUser]: user is not running as root"));

  data_.ignore_preflight_errors = {"isprivilegeduser"};
  EXPECT_TRUE(RunResetPreflight(data_).ok());
}

TEST_F(ResetPreflightTest, PhaseStopsBeforeTheChecksWhenNotConfirmed) {
  terminal_.lines = {"n"};
  EXPECT_FALSE(RunResetPreflight(data_).ok());
  EXPECT_THAT(Output(), ::testing::Not(HasSubstr("[preflight]")));
}

}  // namespace
}  // namespace kkadm::phases::reset
