// HookObserver under a real Runner with synthetic phases, over hooks in a temporary node root and a
// fake ProcessRunner: which hooks run when, in which order, what they are told, and how their
// failures fail phases.
#include "app/phases/hooks/hook_observer.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/util/file_system_real.h"
#include "app/workflow/runner.h"
#include "tests/fakes/temp_dir.h"
#include "tests/workflow/recording_phase.h"

namespace kkadm::phases::hooks {
namespace {

using workflow::testing::Log;
using workflow::testing::P;

// Records each program it is asked to run into the shared log as "hook <dir>/<name>" and ends it
// as `outcomes` says for its name (else with exit status 0).
class FakeProcessRunner final : public util::ProcessRunner {
 public:
  explicit FakeProcessRunner(std::shared_ptr<Log> log) : log_(std::move(log)) {}
  std::map<std::string, util::ProcessOutcome> outcomes;
  std::vector<util::ProcessRequest> requests;

  Result<util::ProcessOutcome> Run(const util::ProcessRequest& request) override {
    requests.push_back(request);
    const std::filesystem::path path(request.path);
    log_->push_back("hook " + path.parent_path().filename().string() + "/" +
                    path.filename().string());
    auto it = outcomes.find(path.filename().string());
    if (it != outcomes.end()) return it->second;
    util::ProcessOutcome ok;
    ok.exited = true;
    ok.exit_code = 0;
    return ok;
  }

 private:
  std::shared_ptr<Log> log_;
};

class HookObserverTest : public ::testing::Test {
 protected:
  HookObserverTest() : fs_(root_.path()), runner_(log_), printer_(printed_) {
    facts_.command = "init";
    facts_.config_file = "/root/kubeadm.yaml";
    facts_.paths = {{"adminKubeconfig", "/etc/kubernetes/admin.conf"}};
    facts_.environment = {{"PATH", "/usr/bin"}, {"LC_ALL", "C"}, {"SECRET_TOKEN", "abcdef.0123"}};
  }

  // An executable (or, with mode, another) file in the node's hooks directory.
  void AddFile(const std::string& rel, const std::string& content = "#!/bin/sh\n",
               unsigned mode = 0755) {
    const std::string host = root_.path() + "/etc/kkadm/hooks.d/" + rel;
    std::filesystem::create_directories(std::filesystem::path(host).parent_path());
    std::ofstream(host) << content;
    ::chmod(host.c_str(), mode);
  }

  // a; b with children x and y.
  Status Run(workflow::RunOptions options = {}) {
    workflow::Runner runner({P(log_, "a"), P(log_, "b", {P(log_, "b/x"), P(log_, "b/y")})});
    HookObserver observer(fs_, runner_, printer_, facts_);
    runner.SetObserver(&observer);
    return runner.Run(options);
  }

  static util::ProcessOutcome Exit(int code, std::string err = "") {
    util::ProcessOutcome outcome;
    outcome.exited = true;
    outcome.exit_code = code;
    outcome.err = std::move(err);
    return outcome;
  }

  testing::TempDir root_;
  util::RealFileSystem fs_;
  std::shared_ptr<Log> log_ = std::make_shared<Log>();
  FakeProcessRunner runner_;
  std::ostringstream printed_;
  util::Printer printer_;
  RunFacts facts_;
};

TEST_F(HookObserverTest, HooksRunAroundPhasesInOrderAndAParentsPostHooksAfterItsChildren) {
  AddFile("init/pre.d/10-first");
  AddFile("init/pre-a.d/20-second");
  AddFile("init/pre-a.d/10-first");
  AddFile("init/post-a.d/10-after-a");
  AddFile("init/post-b.d/10-after-b");
  AddFile("init/pre-b/x.d/10-before-x");
  AddFile("init/post-b/y.d/10-after-y");
  AddFile("init/post.d/10-last");
  ASSERT_TRUE(Run().ok());
  EXPECT_EQ(*log_, (Log{"hook pre.d/10-first", "hook pre-a.d/10-first", "hook pre-a.d/20-second",
                        "a", "hook post-a.d/10-after-a", "b", "hook x.d/10-before-x", "b/x", "b/y",
                        "hook y.d/10-after-y", "hook post-b.d/10-after-b", "hook post.d/10-last"}));
  EXPECT_NE(printed_.str().find("[hooks] Running pre-a hook 10-first\n"), std::string::npos);
}

TEST_F(HookObserverTest, OnlyExecutableFilesWithARunPartsNameAreHooks) {
  AddFile("init/pre-a.d/10-hook");
  AddFile("init/pre-a.d/10-hook.yaml", "timeout: 30s\n", 0755);
  AddFile("init/pre-a.d/20-old.dpkg-old");
  AddFile("init/pre-a.d/30-plain", "#!/bin/sh\n", 0644);
  AddFile("init/pre-a.d/40-dir/inside");
  ASSERT_TRUE(Run().ok());
  ASSERT_EQ(runner_.requests.size(), 1u);
  EXPECT_EQ(runner_.requests[0].timeout, std::chrono::seconds(30));
  EXPECT_EQ(runner_.requests[0].path, root_.path() + "/etc/kkadm/hooks.d/init/pre-a.d/10-hook");
}

TEST_F(HookObserverTest, AFailingPreHookFailsItsPhaseWithItsNameAndStderr) {
  AddFile("init/pre-b.d/10-fails");
  AddFile("init/pre-b.d/20-never");
  AddFile("init/post.d/10-told");
  std::string err;
  for (int i = 1; i <= 12; ++i) err += "line " + std::to_string(i) + "\n";
  runner_.outcomes["10-fails"] = Exit(3, err);
  Status status = Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "error execution phase b: pre-b hook \"10-fails\" "
            "(/etc/kkadm/hooks.d/init/pre-b.d/10-fails) exited with status 3; the end of its "
            "stderr:\n  line 3\n  line 4\n  line 5\n  line 6\n  line 7\n  line 8\n  line 9\n  "
            "line 10\n  line 11\n  line 12");
  EXPECT_EQ(*log_, (Log{"a", "hook pre-b.d/10-fails", "hook post.d/10-told"}));
  auto told = nlohmann::json::parse(runner_.requests.back().input);
  EXPECT_EQ(told["result"], "Failed");
}

TEST_F(HookObserverTest, AHookThatIsNotFatalOnlyWarns) {
  AddFile("init/pre-a.d/10-fails");
  AddFile("init/pre-a.d/10-fails.yaml", "fatal: false\ntimeout: 2s\n");
  util::ProcessOutcome late;
  late.timed_out = true;
  late.signal = 9;
  runner_.outcomes["10-fails"] = late;
  EXPECT_TRUE(Run().ok());
  EXPECT_EQ(log_->at(1), "a");
}

TEST_F(HookObserverTest, AFatalPostHookFailsThePhaseAndTheRunStops) {
  AddFile("init/post-a.d/10-fails");
  util::ProcessOutcome late;
  late.timed_out = true;
  late.signal = 9;
  runner_.outcomes["10-fails"] = late;
  Status status = Run();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "error execution phase a: post-a hook \"10-fails\" "
            "(/etc/kkadm/hooks.d/init/post-a.d/10-fails) did not end within its timeout of "
            "5m0s and was killed with its process group; its stderr was empty");
  EXPECT_EQ(*log_, (Log{"a", "hook post-a.d/10-fails"}));
}

TEST_F(HookObserverTest, BadSettingsFailThePhaseNamingTheFile) {
  AddFile("init/pre-a.d/10-hook");
  AddFile("init/pre-a.d/10-hook.yaml", "timeout: 30s\nretries: 2\n");
  Status status = Run();
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/etc/kkadm/hooks.d/init/pre-a.d/10-hook.yaml: unknown field "
                                  "\"retries\""),
            std::string::npos)
      << status.message();
  EXPECT_TRUE(runner_.requests.empty());
}

TEST_F(HookObserverTest, DryRunListsTheHooksAndRunsNone) {
  facts_.dry_run = true;
  AddFile("init/pre-a.d/10-hook");
  AddFile("init/post.d/10-last");
  ASSERT_TRUE(Run().ok());
  EXPECT_TRUE(runner_.requests.empty());
  EXPECT_EQ(printed_.str(),
            "[hooks] Would run pre-a hook /etc/kkadm/hooks.d/init/pre-a.d/10-hook\n"
            "[hooks] Would run post-init hook /etc/kkadm/hooks.d/init/post.d/10-last\n");
}

TEST_F(HookObserverTest, APhaseCommandRunsThePhasesHooksButNotTheCommands) {
  AddFile("init/pre.d/10-first");
  AddFile("init/pre-b/x.d/10-before-x");
  AddFile("init/post-b/x.d/10-after-x");
  AddFile("init/post.d/10-last");
  workflow::RunOptions options;
  options.filter_path = "b/x";
  ASSERT_TRUE(Run(options).ok());
  EXPECT_EQ(*log_, (Log{"hook x.d/10-before-x", "b/x", "hook x.d/10-after-x"}));
}

TEST_F(HookObserverTest, TheBindingContextAndEnvironmentHoldWhatTheDocsSayAndNoSecret) {
  AddFile("init/post-b/x.d/10-hook");
  ASSERT_TRUE(Run().ok());
  ASSERT_EQ(runner_.requests.size(), 1u);
  const util::ProcessRequest& request = runner_.requests[0];
  EXPECT_EQ(request.input_file_env, "KKADM_BINDING_CONTEXT");
  EXPECT_EQ(request.input,
            R"({"apiVersion":"hooks.kkadm.io/v1alpha1","kind":"HookBindingContext",)"
            R"("command":"init","phase":"b/x","stage":"post","hook":{"name":"10-hook",)"
            R"("path":"/etc/kkadm/hooks.d/init/post-b/x.d/10-hook","timeout":"5m0s",)"
            R"("fatal":true},"rootfs":"/","dryRun":false,"configFile":"/root/kubeadm.yaml",)"
            R"("hooksDir":"/etc/kkadm/hooks.d","paths":{"adminKubeconfig":)"
            R"("/etc/kubernetes/admin.conf"},"result":"Succeeded"})"
            "\n");
  EXPECT_EQ(request.env,
            (std::vector<std::string>{"PATH=/usr/bin", "LC_ALL=C", "KKADM_COMMAND=init",
                                      "KKADM_PHASE=b/x", "KKADM_STAGE=post", "KKADM_HOOK=10-hook",
                                      "KKADM_ROOTFS=/", "KKADM_DRY_RUN=false"}));
}

TEST(HookDirectoryTest, NestedPhasesKeepTheirSlash) {
  EXPECT_EQ(HookDirectory("/etc/kkadm/hooks.d", "init", Stage::kPre, "certs/ca"),
            "/etc/kkadm/hooks.d/init/pre-certs/ca.d");
  EXPECT_EQ(HookDirectory("/h", "reset", Stage::kPost, ""), "/h/reset/post.d");
  EXPECT_TRUE(IsHookName("10-wait_for-X"));
  EXPECT_FALSE(IsHookName("10-x.yaml"));
  EXPECT_FALSE(IsHookName(""));
}

}  // namespace
}  // namespace kkadm::phases::hooks
