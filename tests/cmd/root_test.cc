// kkadm's whole command tree through cmd::Main: every workflow command builds its phase
// subcommands when `phase` is parsed (a CLI11 error in one would otherwise show only there), and
// --help-all lists them.
#include "cmd/root.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kkadm::cmd {
namespace {

using ::testing::HasSubstr;

struct Output {
  int exit_code = 0;
  std::string out;
};

Output RunMain(std::vector<std::string> args) {
  args.insert(args.begin(), "kkadm");
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  ::testing::internal::CaptureStdout();
  int code = Main(static_cast<int>(argv.size()), argv.data());
  return {code, ::testing::internal::GetCapturedStdout()};
}

TEST(RootTest, EveryWorkflowBuildsItsPhaseSubcommands) {
  for (const auto& [command, phase] :
       std::vector<std::pair<std::string, std::string>>{{"init", "kubelet-finalize"},
                                                        {"join", "control-plane-prepare"},
                                                        {"reset", "cleanup-node"}}) {
    Output help = RunMain({command, "phase", "--help"});
    EXPECT_EQ(help.exit_code, kExitOk) << command;
    EXPECT_THAT(help.out, HasSubstr(phase)) << command;
    Output sub_help = RunMain({command, "phase", phase, "--help"});
    EXPECT_EQ(sub_help.exit_code, kExitOk) << command << " " << phase;
  }
}

// CLI11 expands one level: `<command> --help-all` lists what is under `phase`.
TEST(RootTest, HelpAllListsPhaseSubcommands) {
  for (std::string command : {"init", "join", "reset"}) {
    Output help = RunMain({command, "--help-all"});
    EXPECT_EQ(help.exit_code, kExitOk);
    EXPECT_THAT(help.out, HasSubstr("single phase of the " + command +
                                    " workflow\n  Subcommands:\n    preflight"));
  }
}

}  // namespace
}  // namespace kkadm::cmd
