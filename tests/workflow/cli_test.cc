// BindToCommand: phase subcommands, --skip-phases, inherited and local flags, help text.
#include "app/workflow/cli.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "tests/workflow/recording_phase.h"

namespace kkadm::workflow {
namespace {

using testing::Log;
using testing::P;

// A root app "kkadm" (-v) with an "init" command bound to preflight, certs{ca, apiserver},
// addon{coredns, kube-proxy} and a hidden phase.
class BindTest : public ::testing::Test {
 protected:
  BindTest() : log_(std::make_shared<Log>()), runner_(Phases()) {
    root_.add_option("-v,--v", verbosity_);
    init_ = root_.add_subcommand("init", "Run this command in order to set up the control plane");
    flags_.Register("cert-dir", [this](CLI::App& app) {
      return app.add_option("--cert-dir", cert_dir_, "Certificates directory");
    });
    flags_.Register("config", [this](CLI::App& app) {
      return app.add_option("--config", config_, "Configuration file");
    });
    flags_.Register(
        "kubeconfig",
        [this](CLI::App& app) { return app.add_option("--kubeconfig", kubeconfig_, "Kubeconfig"); },
        FlagSet::Scope::kPhasesOnly);
  }

  std::vector<Phase> Phases() {
    Phase preflight = P(log_, "preflight");
    preflight.inherit_flags = {"config", "kubeconfig"};
    Phase ca = P(log_, "certs/ca");
    ca.inherit_flags = {"cert-dir"};
    Phase apiserver = P(log_, "certs/apiserver");
    apiserver.inherit_flags = {"cert-dir", "config"};
    apiserver.local_flags = {{"csr-only", "Create CSRs only", &csr_only_}};
    Phase certs = P(log_, "certs", {ca, apiserver});
    certs.aliases = {"certificates"};
    Phase coredns = P(log_, "addon/coredns");
    coredns.local_flags = {{"print-manifest", "Print the manifest", &print_coredns_}};
    Phase proxy = P(log_, "addon/kube-proxy");
    proxy.local_flags = {{"print-manifest", "Print the manifest", &print_proxy_}};
    Phase hidden = P(log_, "secret");
    hidden.hidden = true;
    return {preflight, certs, P(log_, "addon", {coredns, proxy}), hidden};
  }

  void Bind(BindOptions options = {}) {
    options.on_done = [this](const Status& status, const std::string& failed_phase) {
      ++done_calls_;
      done_ = status;
      failed_phase_ = failed_phase;
    };
    Status status = BindToCommand(*init_, runner_, flags_, std::move(options));
    ASSERT_TRUE(status.ok()) << status.message();
  }

  void Parse(const std::string& command_line) { root_.parse(command_line, false); }

  std::shared_ptr<Log> log_;
  Runner runner_;
  CLI::App root_{"kkadm", "kkadm"};
  CLI::App* init_ = nullptr;
  FlagSet flags_;
  int verbosity_ = 0;
  std::string cert_dir_ = "/etc/kubernetes/pki";
  std::string config_;
  std::string kubeconfig_;
  bool csr_only_ = false;
  bool print_coredns_ = false;
  bool print_proxy_ = false;
  int done_calls_ = 0;
  Status done_ = Internal("not run");
  std::string failed_phase_ = "unset";
};

// The phase subcommands cost most of a command's CLI11 set-up: they exist once `phase` is parsed.
TEST_F(BindTest, PhaseSubcommandsAreBuiltWhenPhaseIsParsed) {
  Bind();
  CLI::App* phase = init_->get_subcommand("phase");
  auto built = [phase] { return phase->get_subcommands([](CLI::App*) { return true; }).size(); };
  EXPECT_EQ(built(), 0u);
  Parse("init --cert-dir /pki");
  EXPECT_EQ(built(), 0u);
  Parse("init phase certs ca --cert-dir /a");
  EXPECT_EQ(built(), 3u);  // preflight, certs, addon
  EXPECT_EQ(cert_dir_, "/a");
  Parse("init phase certs apiserver --cert-dir /b");  // a second parse builds nothing twice
  EXPECT_EQ(cert_dir_, "/b");
  EXPECT_EQ(built(), 3u);
  EXPECT_EQ(*log_,
            (Log{"preflight", "certs", "certs/ca", "certs/apiserver", "addon", "addon/coredns",
                 "addon/kube-proxy", "secret", "certs/ca", "certs/apiserver"}));
}

TEST_F(BindTest, PhaseSubcommandsCanBeBuiltAtOnce) {
  BindOptions options;
  options.phase_commands_now = true;  // --help-all
  Bind(std::move(options));
  CLI::App* phase = init_->get_subcommand("phase");
  EXPECT_EQ(phase->get_subcommands([](CLI::App*) { return true; }).size(), 3u);
  Parse("init phase certs ca --cert-dir /a");
  EXPECT_EQ(phase->get_subcommands([](CLI::App*) { return true; }).size(), 3u);
  EXPECT_EQ(*log_, (Log{"certs/ca"}));
}

TEST_F(BindTest, MainCommandRunsTheWholeWorkflow) {
  Bind();
  Parse("init --cert-dir /pki");
  EXPECT_EQ(*log_, (Log{"preflight", "certs", "certs/ca", "certs/apiserver", "addon",
                        "addon/coredns", "addon/kube-proxy", "secret"}));
  EXPECT_EQ(cert_dir_, "/pki");
  EXPECT_EQ(done_calls_, 1);
  EXPECT_TRUE(done_.ok());
  EXPECT_EQ(failed_phase_, "");
}

TEST_F(BindTest, SkipPhasesOnTheMainCommand) {
  Bind();
  Parse("init --skip-phases=certs/apiserver,addon --skip-phases secret");
  EXPECT_EQ(*log_, (Log{"preflight", "certs", "certs/ca"}));
}

TEST_F(BindTest, UnknownSkipPhaseReachesOnDone) {
  Bind();
  Parse("init --skip-phases=certs/nope");
  EXPECT_TRUE(log_->empty());
  EXPECT_EQ(done_.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(done_.message().rfind("invalid phase name: certs/nope; valid phase names are: "
                                  "preflight, certs, certs/ca",
                                  0),
            0u)
      << done_.message();
}

TEST_F(BindTest, PhaseLeafRunsOnlyThatPhase) {
  Bind();
  Parse("init phase certs ca");
  EXPECT_EQ(*log_, (Log{"certs/ca"}));
  EXPECT_EQ(done_calls_, 1);
  EXPECT_TRUE(done_.ok());
}

TEST_F(BindTest, AllRunsTheParentAndItsChildren) {
  Bind();
  Parse("init phase certs all");
  EXPECT_EQ(*log_, (Log{"certs", "certs/ca", "certs/apiserver"}));
  EXPECT_EQ(done_calls_, 1);
}

TEST_F(BindTest, AliasesWork) {
  Bind();
  Parse("init phase certificates ca");
  EXPECT_EQ(*log_, (Log{"certs/ca"}));
}

TEST_F(BindTest, ParentAloneAsksForHelp) {
  Bind();
  EXPECT_THROW(Parse("init phase certs"), CLI::CallForHelp);
  EXPECT_THROW(Parse("init phase"), CLI::CallForHelp);
  // cmd/root.cc prints the help through app.exit(), which shows the deepest selected command.
  try {
    Parse("init phase certs");
  } catch (const CLI::CallForHelp& e) {
    std::ostringstream out, err;
    EXPECT_EQ(root_.exit(e, out, err), 0);
    EXPECT_NE(out.str().find("Usage: kkadm init phase certs"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("all                         Run all certs phases"), std::string::npos)
        << out.str();
  }
  EXPECT_TRUE(log_->empty());
  EXPECT_EQ(done_calls_, 0);
}

TEST_F(BindTest, InheritedFlagOnlyWhereInherited) {
  Bind();
  Parse("init phase certs ca --cert-dir /x");
  EXPECT_EQ(cert_dir_, "/x");
  EXPECT_EQ(*log_, (Log{"certs/ca"}));
  // preflight does not inherit cert-dir: the main command's flag must not leak through.
  EXPECT_THROW(Parse("init phase preflight --cert-dir /y"), CLI::ParseError);
  EXPECT_THROW(Parse("init phase certs ca --skip-phases=certs"), CLI::ParseError);
}

TEST_F(BindTest, PhaseOnlyFlags) {
  Bind();
  Parse("init phase preflight --kubeconfig /admin.conf --config c.yaml");
  EXPECT_EQ(kubeconfig_, "/admin.conf");
  EXPECT_EQ(config_, "c.yaml");
  EXPECT_THROW(Parse("init --kubeconfig /admin.conf"), CLI::ParseError);
}

TEST_F(BindTest, LocalFlagBoundToItsPhaseOnly) {
  Bind();
  Parse("init phase certs apiserver --csr-only");
  EXPECT_TRUE(csr_only_);
  EXPECT_THROW(Parse("init phase certs ca --csr-only"), CLI::ParseError);
  EXPECT_THROW(Parse("init --csr-only"), CLI::ParseError);
}

TEST_F(BindTest, AllGetsTheFlagsOfEveryChild) {
  Bind();
  // Not given: each target keeps its own value.
  print_proxy_ = true;
  Parse("init phase addon all");
  EXPECT_FALSE(print_coredns_);
  EXPECT_TRUE(print_proxy_);
  print_proxy_ = false;
  EXPECT_EQ(*log_, (Log{"addon", "addon/coredns", "addon/kube-proxy"}));
  Parse("init phase addon all --print-manifest");
  EXPECT_TRUE(print_coredns_);
  EXPECT_TRUE(print_proxy_);
  Parse("init phase certs all --csr-only --cert-dir /z --config k.yaml");
  EXPECT_TRUE(csr_only_);
  EXPECT_EQ(cert_dir_, "/z");
}

TEST_F(BindTest, GlobalFlagsFallThroughToTheRoot) {
  Bind();
  Parse("init phase certs ca -v 5");
  EXPECT_EQ(verbosity_, 5);
  Parse("init --v 3");
  EXPECT_EQ(verbosity_, 3);
}

TEST_F(BindTest, OnePhasePerInvocation) {
  Bind();
  EXPECT_THROW(Parse("init phase preflight certs"), CLI::ParseError);
  EXPECT_THROW(Parse("init phase certs ca apiserver"), CLI::ParseError);
  EXPECT_THROW(Parse("init phase certs ca extra-arg"), CLI::ParseError);
  EXPECT_THROW(Parse("init phase certs extra-arg"), CLI::ParseError);
  EXPECT_TRUE(log_->empty());
}

TEST_F(BindTest, HiddenPhaseHasNoSubcommand) {
  Bind();
  EXPECT_THROW(Parse("init phase secret"), CLI::ParseError);
  EXPECT_TRUE(log_->empty());
}

TEST_F(BindTest, PhaseFailureReachesOnDone) {
  // Rebuild with a failing phase: the Runner is not movable, so use a second command.
  auto log = std::make_shared<Log>();
  Phase bad = P(log, "preflight");
  bad.run = [] { return FailedPrecondition("[preflight] Some fatal errors occurred"); };
  Runner runner({bad, P(log, "certs")});
  CLI::App app{"kkadm", "kkadm"};
  CLI::App* join = app.add_subcommand("join", "Join a node");
  Status seen = Status::Ok();
  std::string failed;
  BindOptions options;
  options.on_done = [&](const Status& status, const std::string& phase) {
    seen = status;
    failed = phase;
  };
  FlagSet flags;
  ASSERT_TRUE(BindToCommand(*join, runner, flags, options).ok());
  app.parse("join", false);
  EXPECT_EQ(seen.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(seen.message(),
            "error execution phase preflight: [preflight] Some fatal errors occurred");
  EXPECT_EQ(failed, "preflight");
  EXPECT_TRUE(log->empty());
}

TEST_F(BindTest, ResolveSkipPhasesSeesInitialisedData) {
  std::string from_config;
  runner_.SetDataInitializer([&from_config] {
    from_config = "addon";
    return Status::Ok();
  });
  BindOptions options;
  options.resolve_skip_phases = [&from_config](const std::vector<std::string>& flag) {
    std::vector<std::string> skip = flag;
    skip.push_back(from_config);
    return Result<std::vector<std::string>>(skip);
  };
  Bind(options);
  Parse("init --skip-phases=certs");
  EXPECT_EQ(*log_, (Log{"preflight", "secret"}));
}

TEST_F(BindTest, HelpShowsThePhaseBlock) {
  Bind();
  const std::string block =
      "The \"init\" command executes the following phases:\n"
      "```\n"
      "preflight    Run preflight\n"
      "certs        Run certs\n"
      "  /ca          Run certs/ca\n"
      "  /apiserver   Run certs/apiserver\n"
      "addon        Run addon\n"
      "  /coredns     Run addon/coredns\n"
      "  /kube-proxy  Run addon/kube-proxy\n"
      "```\n";
  EXPECT_NE(init_->help().find(block), std::string::npos) << init_->help();
  EXPECT_NE(init_->help().find("\nFlags:\n  --cert-dir"), std::string::npos) << init_->help();
  EXPECT_NE(init_->help().find("--skip-phases"), std::string::npos);
  EXPECT_EQ(init_->help().find("[Option Group"), std::string::npos);
  CLI::App* phase = init_->get_subcommand("phase");
  EXPECT_EQ(phase->get_description(),
            "Use this command to invoke single phase of the init workflow");
  // The root's listing of init stays one line.
  EXPECT_EQ(init_->get_description(), "Run this command in order to set up the control plane");
}

// join: a positional argument on the main command and, through every_phase_flags, on each phase.
TEST(BindToCommandTest, EveryPhaseFlagsCarryThePositionalArgument) {
  auto log = std::make_shared<Log>();
  Runner runner(
      {P(log, "preflight"), P(log, "control-plane-join", {P(log, "control-plane-join/etcd")})});
  std::string endpoint;
  std::vector<std::string> seen;
  runner.SetDataInitializer([&] {
    seen.push_back(endpoint);
    return Status::Ok();
  });
  FlagSet flags;
  flags.Register("api-server-endpoint", [&endpoint](CLI::App& app) {
    return app.add_option("api-server-endpoint", endpoint, "host:port of the API server");
  });
  BindOptions options;
  options.use = "join [api-server-endpoint]";
  options.every_phase_flags = {"api-server-endpoint"};
  CLI::App app{"kkadm", "kkadm"};
  CLI::App* join = app.add_subcommand("join", "Join a node");
  ASSERT_TRUE(BindToCommand(*join, runner, flags, options).ok());
  EXPECT_NE(join->help().find("The \"join [api-server-endpoint]\" command executes"),
            std::string::npos);

  app.parse("join phase control-plane-join etcd 10.0.0.1:6443", false);
  EXPECT_EQ(endpoint, "10.0.0.1:6443");
  EXPECT_EQ(*log, (Log{"control-plane-join/etcd"}));
  EXPECT_THROW(app.parse("join phase control-plane-join 10.0.0.1:6443", false), CLI::ParseError);
  EXPECT_EQ(seen, (std::vector<std::string>{"10.0.0.1:6443"}));  // data initialised once
}

TEST(BindToCommandTest, RejectsBrokenDefinitions) {
  auto log = std::make_shared<Log>();
  Phase phase = P(log, "preflight");
  phase.inherit_flags = {"nope"};
  Runner runner({phase});
  CLI::App app{"kkadm", "kkadm"};
  FlagSet flags;
  Status status = BindToCommand(*app.add_subcommand("init"), runner, flags, {});
  EXPECT_EQ(status.code(), StatusCode::kInternal);
  EXPECT_NE(status.message().find("nope"), std::string::npos) << status.message();

  Runner plain({P(log, "preflight")});
  FlagSet twice;
  std::string value;
  auto adder = [&value](CLI::App& a) { return a.add_option("--x", value); };
  twice.Register("x", adder);
  twice.Register("x", adder);
  CLI::App app2{"kkadm", "kkadm"};
  EXPECT_EQ(BindToCommand(*app2.add_subcommand("init"), plain, twice, {}).code(),
            StatusCode::kInternal);

  FlagSet clash;
  clash.Register("a", adder);
  clash.Register("b", adder);  // CLI11 refuses the second --x
  CLI::App app3{"kkadm", "kkadm"};
  EXPECT_EQ(BindToCommand(*app3.add_subcommand("init"), plain, clash, {}).code(),
            StatusCode::kInternal);

  // Found when binding, although the phase subcommands are built only when `phase` is parsed.
  bool as_flag = false;
  std::string as_text;
  Phase flagged = P(log, "certs/ca");
  flagged.local_flags = {{"csr-only", "", &as_flag}};
  Phase texted = P(log, "certs/apiserver");
  texted.local_flags = {{"csr-only", "", &as_text}};
  Runner clashing({P(log, "certs", {flagged, texted})});
  CLI::App app4{"kkadm", "kkadm"};
  Status types = BindToCommand(*app4.add_subcommand("init"), clashing, flags, {});
  EXPECT_EQ(types.code(), StatusCode::kInternal);
  EXPECT_NE(types.message().find("csr-only"), std::string::npos) << types.message();
}

}  // namespace
}  // namespace kkadm::workflow
