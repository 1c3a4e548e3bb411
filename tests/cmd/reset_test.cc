// `kkadm reset` through a CLI::App holding only ResetCommand, on a TempDir --rootfs, with a fake
// Machine and Terminal. systemd is never reached: dry-run records, and the non-dry-run case points
// KKADM_SYSTEM_BUS_ADDRESS at a socket that does not exist.
#include "cmd/reset.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cmd/context.h"
#include "cmd/root.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_terminal.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::cmd {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// Points the init system at nothing for one test, so no real systemd is ever asked to stop a unit.
class NoSystemBus {
 public:
  NoSystemBus() {
    ::setenv("KKADM_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/kkadm-test-bus", 1);
  }
  ~NoSystemBus() { ::unsetenv("KKADM_SYSTEM_BUS_ADDRESS"); }
};

struct ResetRun {
  std::string out;
  std::string err;
  Status status;
  int exit_code = 0;
};

class ResetCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* file :
         {"/etc/kubernetes/manifests/kube-apiserver.yaml", "/etc/kubernetes/pki/ca.key",
          "/var/lib/kubelet/config.yaml", "/etc/kubernetes/admin.conf.bak",
          "/etc/kubernetes/kubelet.conf", "/var/lib/etcd/member/snap/db"}) {
      Write(file, "content");
    }
  }
  void Write(const std::string& node_path, const std::string& text) {
    fs::create_directories(fs::path(Root() + node_path).parent_path());
    std::ofstream(Root() + node_path) << text;
  }
  std::string Root() const { return dir_.path() + "/root"; }
  bool Exists(const std::string& node_path) const {
    return fs::exists(fs::symlink_status(Root() + node_path));
  }

  ResetRun Reset(std::vector<std::string> args, bool terminal = true,
                 std::vector<std::string> answers = {}) {
    std::ostringstream out, err;
    CommandContext context(out, err);
    CLI::App app("test", "kkadm");
    app.add_option("--rootfs", context.global.rootfs);
    ResetSeams seams;
    auto machine = std::make_unique<testing::FakeMachine>();
    auto fake_terminal = std::make_unique<testing::FakeTerminal>();
    fake_terminal->is_terminal = terminal;
    fake_terminal->lines.assign(answers.begin(), answers.end());
    seams.machine = std::move(machine);
    seams.terminal = std::move(fake_terminal);
    ResetCommand reset(context, std::move(seams));
    reset.Bind(app);
    args.insert(args.begin(), {"reset", "--rootfs", Root()});
    std::vector<const char*> argv = {"kkadm"};
    for (const auto& a : args) argv.push_back(a.c_str());
    ResetRun run;
    try {
      app.parse(static_cast<int>(argv.size()), argv.data());
      run.status = context.status;
      run.exit_code = context.exit_code;
    } catch (const CLI::ParseError& e) {
      run.status = InvalidArgument(e.what());
    }
    run.out = out.str();
    run.err = err.str();
    return run;
  }
  std::string WriteConfig(const std::string& text) {
    std::string path = dir_.path() + "/reset.yaml";
    std::ofstream(path) << text;
    return path;
  }

  testing::TempDir dir_;
};

TEST_F(ResetCommandTest, HelpListsThePhases) {
  std::ostringstream out, err;
  CommandContext context(out, err);
  CLI::App app("test", "kkadm");
  ResetCommand reset(context);
  reset.Bind(app);
  std::string help = app.get_subcommand("reset")->help();
  EXPECT_THAT(help, HasSubstr("The \"reset\" command executes the following phases:"));
  for (const char* phase :
       {"preflight", "remove-etcd-member", "cleanup-node", "--cleanup-cni", "--force", "--cert-dir",
        "--cleanup-tmp-dir", "--kubeconfig", "--cri-socket", "--skip-phases"}) {
    EXPECT_THAT(help, HasSubstr(phase));
  }
}

TEST_F(ResetCommandTest, WithoutATerminalItRefusesAndChangesNothing) {
  ResetRun run = Reset({}, /*terminal=*/false);
  EXPECT_EQ(run.status.code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(run.status.message(), HasSubstr("error execution phase preflight"));
  EXPECT_THAT(run.status.message(), HasSubstr("--force"));
  EXPECT_EQ(run.exit_code, kExitPreflight);
  EXPECT_TRUE(Exists("/etc/kubernetes/pki/ca.key"));
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));
}

TEST_F(ResetCommandTest, AnsweringNoChangesNothing) {
  ResetRun run = Reset({}, /*terminal=*/true, {"n"});
  EXPECT_THAT(run.status.message(), HasSubstr("won't proceed"));
  EXPECT_THAT(run.out, HasSubstr("[reset] Are you sure you want to proceed? [y/N]: "));
  EXPECT_TRUE(Exists("/etc/kubernetes/kubelet.conf"));
}

// The command decides: --force (kubeadm's -f), and a dry run (which changes nothing), ask nothing,
// even on a terminal.
TEST_F(ResetCommandTest, ForceAndDryRunDoNotAsk) {
  NoSystemBus no_bus;
  for (const char* flag : {"--force", "-f", "--dry-run"}) {
    ResetRun run = Reset({flag}, /*terminal=*/true);
    EXPECT_THAT(run.status.message(), Not(HasSubstr("won't proceed"))) << flag;
    EXPECT_THAT(run.out, Not(HasSubstr("WARNING: Changes made to this host"))) << flag;
    EXPECT_THAT(run.out, Not(HasSubstr("Are you sure"))) << flag;
    EXPECT_THAT(run.out, HasSubstr("[preflight] Running pre-flight checks")) << flag;
  }
}

TEST_F(ResetCommandTest, DryRunChangesNothingAndSaysWhatItWouldDo) {
  ResetRun run = Reset({"--dry-run"}, /*terminal=*/false);
  ASSERT_TRUE(run.status.ok()) << run.status.message() << "\n" << run.out;
  EXPECT_THAT(run.out, HasSubstr("[dryrun] Would stop the kubelet service"));
  EXPECT_THAT(run.out,
              HasSubstr("[reset] Would delete contents of the etcd data directory: /var/lib/etcd"));
  EXPECT_THAT(run.out, HasSubstr("[reset] Would delete files: [/etc/kubernetes/admin.conf"));
  EXPECT_THAT(run.out, HasSubstr("The reset process does not clean CNI configuration."));
  for (const char* file : {"/etc/kubernetes/pki/ca.key", "/etc/kubernetes/kubelet.conf",
                           "/var/lib/etcd/member/snap/db", "/var/lib/kubelet/config.yaml"}) {
    EXPECT_TRUE(Exists(file)) << file;
  }
}

TEST_F(ResetCommandTest, ResetWithoutSystemdListsTheKubeletAndExitsOne) {
  NoSystemBus no_bus;
  ResetRun run = Reset({"--force", "--cleanup-cni"});
  EXPECT_EQ(run.exit_code, kExitError);
  EXPECT_THAT(run.status.message(), HasSubstr("reset is incomplete: 1 item(s)"));
  EXPECT_FALSE(Exists("/etc/kubernetes/pki/ca.key"));
  EXPECT_FALSE(Exists("/etc/kubernetes/kubelet.conf"));
  EXPECT_FALSE(Exists("/var/lib/etcd/member"));
  EXPECT_TRUE(Exists("/etc/kubernetes/admin.conf.bak"));  // not a file kubeadm writes
  EXPECT_THAT(run.out, Not(HasSubstr("CNI")));
  // The list is the very end of the output.
  EXPECT_THAT(run.out, HasSubstr("\tkubelet.service: could not be stopped"));
  const std::string last =
      "[reset] Fix these and run 'kkadm reset' again: it only does what is still left to do.\n";
  ASSERT_GE(run.out.size(), last.size());
  EXPECT_EQ(run.out.substr(run.out.size() - last.size()), last);
  EXPECT_LT(run.out.find("Please, check the contents of the $HOME/.kube/config file."),
            run.out.find("[reset] The reset is incomplete"));
}

TEST_F(ResetCommandTest, ADeadApiServerDoesNotHoldResetUp) {
  NoSystemBus no_bus;
  Write("/etc/kubernetes/admin.conf",
        "apiVersion: v1\nkind: Config\nclusters:\n- name: k\n  cluster:\n    server: "
        "https://127.0.0.1:1\n"
        "contexts:\n- name: k\n  context:\n    cluster: k\n    user: u\ncurrent-context: k\n"
        "users:\n- name: u\n  user:\n    token: abc\n");
  auto start = std::chrono::steady_clock::now();
  ResetRun run = Reset({"--force"});
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_LT(took, std::chrono::seconds(8));
  EXPECT_THAT(run.out, HasSubstr("[reset] Reading configuration from the cluster..."));
  EXPECT_FALSE(Exists("/etc/kubernetes/admin.conf"));
  EXPECT_FALSE(Exists("/var/lib/etcd/member"));
}

TEST_F(ResetCommandTest, APhaseAloneHasNoClosingText) {
  ResetRun run = Reset({"phase", "preflight", "--force"});
  ASSERT_TRUE(run.status.ok()) << run.status.message();
  EXPECT_EQ(run.out, "[preflight] Running pre-flight checks\n");
}

TEST_F(ResetCommandTest, BadInputIsRefusedBeforeAnything) {
  struct Case {
    std::vector<std::string> args;
    std::string fragment;
  };
  std::string unmount = WriteConfig(
      "apiVersion: kubeadm.k8s.io/v1beta4\nkind: ResetConfiguration\nunmountFlags: [MNT_LAZY]\n");
  std::vector<Case> cases = {
      {{"--skip-phases=no-such-phase", "--force"}, "invalid phase name: no-such-phase"},
      {{"--ignore-preflight-errors=no-such-check", "--force"}, "no-such-check"},
      {{"--config", dir_.path() + "/missing.yaml"}, "missing.yaml"},
      {{"--config", unmount}, "MNT_LAZY"},
      {{"--config", unmount, "--force"}, "can not mix '--config' with arguments [force]"},
      {{"--cert-dir", "relative/pki", "--force"}, "relative/pki"},
  };
  for (const Case& c : cases) {
    ResetRun run = Reset(c.args, /*terminal=*/false);
    EXPECT_FALSE(run.status.ok()) << c.fragment;
    EXPECT_THAT(run.status.message(), HasSubstr(c.fragment));
    EXPECT_NE(run.exit_code, kExitPreflight) << c.fragment;
  }
  EXPECT_TRUE(Exists("/etc/kubernetes/pki/ca.key"));
  EXPECT_TRUE(Exists("/var/lib/etcd/member/snap/db"));
}

}  // namespace
}  // namespace kkadm::cmd
