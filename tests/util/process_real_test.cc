// RealProcessRunner against real programs (/bin/sh, env, awk): exit codes and signals, stdin and
// the input file, lines as they come, the output bound, its own process group, and a timeout that
// kills the whole group so that nothing it started is left.
#include "app/util/process_real.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

using std::chrono::milliseconds;

ProcessRequest Shell(const std::string& script) {
  ProcessRequest request;
  request.path = "/bin/sh";
  request.args = {"-c", script};
  request.env = {"PATH=/usr/bin:/bin"};
  return request;
}

ProcessOutcome RunOk(const ProcessRequest& request) {
  RealProcessRunner runner;
  Result<ProcessOutcome> outcome = runner.Run(request);
  EXPECT_TRUE(outcome.has_value()) << outcome.status().message();
  return outcome ? *outcome : ProcessOutcome{};
}

// Whether a process of this PID still runs (a zombie is not running).
bool Running(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const std::size_t close = line.rfind(')');
  return close != std::string::npos && line.substr(close + 2, 1) != "Z";
}

TEST(RealProcessRunnerTest, ExitCodeAndSignalAreReported) {
  ProcessOutcome three = RunOk(Shell("echo out; echo err >&2; exit 3"));
  EXPECT_TRUE(three.exited);
  EXPECT_EQ(three.exit_code, 3);
  EXPECT_FALSE(three.succeeded());
  EXPECT_EQ(three.out, "out\n");
  EXPECT_EQ(three.err, "err\n");

  ProcessOutcome killed = RunOk(Shell("kill -KILL $$"));
  EXPECT_FALSE(killed.exited);
  EXPECT_EQ(killed.signal, SIGKILL);
  EXPECT_FALSE(killed.timed_out);

  EXPECT_TRUE(RunOk(Shell("exit 0")).succeeded());
}

TEST(RealProcessRunnerTest, StdinHoldsTheInputThenEndsAndTheInputFileIsRemovedAfter) {
  ProcessRequest request =
      Shell("cat; echo; cat \"$CTX\"; echo; echo \"$CTX\"; stat -c %a \"$CTX\"");
  request.input = "{\"a\":1}";
  request.input_file_env = "CTX";
  ProcessOutcome outcome = RunOk(request);
  ASSERT_TRUE(outcome.succeeded()) << outcome.err;
  std::vector<std::string> lines;
  std::string rest = outcome.out;
  for (std::size_t nl; (nl = rest.find('\n')) != std::string::npos; rest.erase(0, nl + 1)) {
    lines.push_back(rest.substr(0, nl));
  }
  ASSERT_EQ(lines.size(), 4u) << outcome.out;
  EXPECT_EQ(lines[0], "{\"a\":1}");
  EXPECT_EQ(lines[1], "{\"a\":1}");
  EXPECT_EQ(lines[3], "600");
  EXPECT_FALSE(std::filesystem::exists(lines[2])) << lines[2];
}

TEST(RealProcessRunnerTest, AProgramThatReadsNoInputDoesNotHurtTheRunner) {
  ProcessRequest request = Shell("exec 0<&-; exit 0");
  request.input = std::string(60 * 1024, 'x');
  EXPECT_TRUE(RunOk(request).succeeded());
  request.input = std::string(64 * 1024 + 1, 'x');
  RealProcessRunner runner;
  EXPECT_FALSE(runner.Run(request).has_value());
}

TEST(RealProcessRunnerTest, TheEnvironmentIsExactlyTheOneGiven) {
  ProcessRequest request;
  request.path = "/usr/bin/env";
  request.env = {"A=1", "B=two"};
  EXPECT_EQ(RunOk(request).out, "A=1\nB=two\n");
}

TEST(RealProcessRunnerTest, LinesAreHandedOnPerStreamAndTheOutputIsBounded) {
  ProcessRequest request = Shell("printf 'a\\nb\\n'; printf 'e1\\n' >&2; printf 'tail'");
  std::vector<std::string> seen;
  request.on_line = [&seen](ProcessStream stream, std::string_view line) {
    seen.push_back((stream == ProcessStream::kStderr ? "2:" : "1:") + std::string(line));
  };
  RunOk(request);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"1:a", "1:b", "1:tail", "2:e1"}));

  ProcessRequest big = Shell("head -c 300000 /dev/zero | tr '\\0' a; echo; echo last");
  big.keep_bytes = 1000;
  std::size_t longest = 0;
  big.on_line = [&longest](ProcessStream, std::string_view line) {
    longest = std::max(longest, line.size());
  };
  ProcessOutcome outcome = RunOk(big);
  EXPECT_EQ(outcome.out.size(), 1000u);
  EXPECT_TRUE(outcome.out_cut);
  EXPECT_EQ(outcome.out.substr(outcome.out.size() - 5), "last\n");
  EXPECT_EQ(longest, 4096u);  // a long line comes in pieces

  // Also when one read brings a long line and its end (one write of 6,001 bytes, read at once).
  ProcessRequest one_write = Shell("python3 -c 'import os; os.write(1, b\"b\" * 6000 + b\"\\n\")'");
  std::vector<std::size_t> sizes;
  one_write.on_line = [&sizes](ProcessStream, std::string_view line) {
    sizes.push_back(line.size());
  };
  RunOk(one_write);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{4096u, 1904u}));
}

TEST(RealProcessRunnerTest, TheProgramLeadsAProcessGroupOfItsOwn) {
  ProcessOutcome outcome = RunOk(Shell("awk '{print $5}' /proc/$$/stat; echo $$"));
  const std::size_t nl = outcome.out.find('\n');
  ASSERT_NE(nl, std::string::npos);
  EXPECT_EQ(outcome.out.substr(0, nl) + "\n", outcome.out.substr(nl + 1));
}

TEST(RealProcessRunnerTest, TimeoutKillsTheWholeGroupEvenWhatIgnoresSigterm) {
  // Both the shell and the sleep it leaves in the background ignore SIGTERM: only SIGKILL ends
  // them, and the background one is no child the runner waits for.
  ProcessRequest request = Shell("trap '' TERM; sleep 60 & echo $!; sleep 60");
  request.timeout = milliseconds(300);
  request.kill_grace = milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  ProcessOutcome outcome = RunOk(request);
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_FALSE(outcome.succeeded());
  EXPECT_EQ(outcome.signal, SIGKILL);
  EXPECT_LT(took, std::chrono::seconds(5));
  std::string pid = outcome.out.substr(0, outcome.out.find('\n'));
  ASSERT_FALSE(pid.empty());
  for (int i = 0; i < 50 && Running(pid); ++i) std::this_thread::sleep_for(milliseconds(20));
  EXPECT_FALSE(Running(pid)) << "the background sleep " << pid << " was left running";
}

TEST(RealProcessRunnerTest, TimeoutSendsSigtermFirst) {
  ProcessRequest request = Shell("trap 'echo got-term; exit 7' TERM; sleep 60 & wait");
  request.timeout = milliseconds(300);
  ProcessOutcome outcome = RunOk(request);
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_TRUE(outcome.exited);
  EXPECT_EQ(outcome.exit_code, 7);
  EXPECT_EQ(outcome.out, "got-term\n");
}

TEST(RealProcessRunnerTest, AProgramThatCannotStartIsAnError) {
  testing::TempDir dir;
  const std::string plain = dir.path() + "/not-executable";
  std::ofstream(plain) << "#!/bin/sh\n";
  ProcessRequest request;
  request.path = plain;
  RealProcessRunner runner;
  Result<ProcessOutcome> outcome = runner.Run(request);
  ASSERT_FALSE(outcome.has_value());
  EXPECT_NE(outcome.error().message().find("Permission denied"), std::string::npos)
      << outcome.error().message();
  request.path = dir.path() + "/missing";
  EXPECT_FALSE(runner.Run(request).has_value());
}

}  // namespace
}  // namespace kkadm::util
