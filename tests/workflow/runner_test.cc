// Runner: order, filter, skip, dependencies, run conditions, data initialisation, help (synthetic
// phases recording what ran, like kubeadm's runner_test.go).
#include "app/workflow/runner.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/workflow/recording_phase.h"

namespace kkadm::workflow {
namespace {

using testing::Log;
using testing::P;

// foo{bar, baz}, qux{quux{corge}}
std::vector<Phase> Tree(const std::shared_ptr<Log>& log) {
  return {P(log, "foo", {P(log, "foo/bar"), P(log, "foo/baz")}),
          P(log, "qux", {P(log, "qux/quux", {P(log, "qux/quux/corge")})})};
}

struct SelectionCase {
  std::string name;
  std::optional<std::string> filter;
  std::vector<std::string> skip;
  Log want;  // phases run, in order
};

TEST(RunnerTest, SelectsPhasesInPreOrder) {
  const Log all = {"foo", "foo/bar", "foo/baz", "qux", "qux/quux", "qux/quux/corge"};
  const std::vector<SelectionCase> cases = {
      {"everything", std::nullopt, {}, all},
      {"filter parent", "foo", {}, {"foo", "foo/bar", "foo/baz"}},
      {"filter leaf", "foo/bar", {}, {"foo/bar"}},
      {"filter middle", "qux/quux", {}, {"qux/quux", "qux/quux/corge"}},
      {"skip parent", std::nullopt, {"foo"}, {"qux", "qux/quux", "qux/quux/corge"}},
      {"skip child",
       std::nullopt,
       {"foo/baz"},
       {"foo", "foo/bar", "qux", "qux/quux", "qux/quux/corge"}},
      {"skip deep", std::nullopt, {"qux/quux"}, {"foo", "foo/bar", "foo/baz", "qux"}},
      {"skip several", std::nullopt, {"foo/bar", "qux"}, {"foo", "foo/baz"}},
      {"filter and skip", "foo", {"foo/bar"}, {"foo", "foo/baz"}},
      {"skip all pseudo phase", std::nullopt, {"foo/all"}, all},
  };
  for (const auto& c : cases) {
    auto log = std::make_shared<Log>();
    Runner runner(Tree(log));
    ASSERT_TRUE(runner.tree_status().ok()) << runner.tree_status().message();
    Status status = runner.Run(RunOptions{c.filter, c.skip});
    EXPECT_TRUE(status.ok()) << c.name << ": " << status.message();
    EXPECT_EQ(*log, c.want) << c.name;
    EXPECT_EQ(runner.failed_phase(), "") << c.name;
  }
}

TEST(RunnerTest, RejectsUnknownNamesListingValidOnes) {
  const std::string valid =
      "; valid phase names are: foo, foo/bar, foo/baz, qux, qux/quux, qux/quux/corge";
  const std::vector<SelectionCase> cases = {
      {"unknown skip", std::nullopt, {"foo/bar", "nope"}, {}},
      {"skip is case-sensitive", std::nullopt, {"Foo"}, {}},
      {"skip needs the full path", std::nullopt, {"bar"}, {}},
      {"all of a leaf", std::nullopt, {"foo/bar/all"}, {}},
      {"unknown filter", "foo/nope", {}, {}},
  };
  for (const auto& c : cases) {
    auto log = std::make_shared<Log>();
    Runner runner(Tree(log));
    Status status = runner.Run(RunOptions{c.filter, c.skip});
    std::string bad = c.filter ? *c.filter : c.skip.back();
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_EQ(status.message(), "invalid phase name: " + bad + valid) << c.name;
    EXPECT_TRUE(log->empty()) << c.name;
  }
}

TEST(RunnerTest, UnknownNameHintFollowsTheName) {
  auto log = std::make_shared<Log>();
  Runner runner(Tree(log));
  runner.SetUnknownNameHint([](const std::string& name, const std::vector<std::string>& valid) {
    return " <" + name + " among " + std::to_string(valid.size()) + ">";
  });
  Status status = runner.Run(RunOptions{std::nullopt, {"Foo"}});
  EXPECT_EQ(status.message(),
            "invalid phase name: Foo <Foo among 6>; valid phase names are: foo, foo/bar, foo/baz, "
            "qux, qux/quux, qux/quux/corge");
  EXPECT_TRUE(log->empty());
}

TEST(RunnerTest, ChecksDependenciesBeforeRunningAnything) {
  struct Case {
    std::string name;
    RunOptions options;
    std::string error;  // empty: success
    Log want;
  };
  auto tree = [](const std::shared_ptr<Log>& log) {
    return std::vector<Phase>{P(log, "a"), P(log, "b", {}, {"a"}),
                              P(log, "c", {P(log, "c/d", {}, {"a", "b"})}), P(log, "e", {}, {"d"})};
  };
  const std::vector<Case> cases = {
      {"all satisfied", {}, "", {"a", "b", "c", "c/d", "e"}},
      {"skip a dependency",
       {std::nullopt, {"a"}},
       "unresolved dependencies:\n\tmissing [a] phase(s) needed by \"b\" phase"
       "\n\tmissing [a] phase(s) needed by \"d\" phase",
       {}},
      {"filter leaves dependencies out",
       {"c", {}},
       "unresolved dependencies:\n\tmissing [a b] phase(s) needed by \"d\" phase",
       {}},
      {"nested dependency by raw name",
       {std::nullopt, {"b", "c"}},
       "unresolved dependencies:\n\tmissing [d] phase(s) needed by \"e\" phase",
       {}},
      {"skip the dependents too", {std::nullopt, {"a", "b", "c", "e"}}, "", {}},
  };
  for (const auto& c : cases) {
    auto log = std::make_shared<Log>();
    Runner runner(tree(log));
    bool initialised = false;
    runner.SetDataInitializer([&initialised] {
      initialised = true;
      return Status::Ok();
    });
    Status status = runner.Run(c.options);
    if (c.error.empty()) {
      EXPECT_TRUE(status.ok()) << c.name << ": " << status.message();
    } else {
      EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.name;
      EXPECT_EQ(status.message(), c.error) << c.name;
      EXPECT_FALSE(initialised) << c.name;
    }
    EXPECT_EQ(*log, c.want) << c.name;
  }
}

TEST(RunnerTest, RunIfDecidesPerPhase) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  phases[0].run_if = [] { return Result<bool>(false); };             // foo skipped, children not
  phases[0].children[1].run_if = [] { return Result<bool>(true); };  // foo/baz runs
  phases[1].children[0].run_if = [] { return Result<bool>(false); };
  Runner runner(std::move(phases));
  ASSERT_TRUE(runner.Run({}).ok());
  EXPECT_EQ(*log, (Log{"foo/bar", "foo/baz", "qux", "qux/quux/corge"}));
}

TEST(RunnerTest, RunIfErrorStopsTheRun) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  phases[0].children[1].run_if = [] { return Result<bool>(Unavailable("no API server")); };
  Runner runner(std::move(phases));
  Status status = runner.Run({});
  EXPECT_EQ(status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(status.message(), "error execution run condition for phase foo/baz: no API server");
  EXPECT_EQ(runner.failed_phase(), "foo/baz");
  EXPECT_EQ(*log, (Log{"foo", "foo/bar"}));
}

TEST(RunnerTest, PhaseErrorIsWrappedAndStopsTheRun) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  bool fail = true;
  phases[1].children[0].run = [log, &fail] {
    log->push_back("qux/quux");
    return fail ? FailedPrecondition("[preflight] Some fatal errors occurred") : Status::Ok();
  };
  Runner runner(std::move(phases));
  Status status = runner.Run({});
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "error execution phase qux/quux: [preflight] Some fatal errors occurred");
  EXPECT_EQ(runner.failed_phase(), "qux/quux");
  EXPECT_EQ(*log, (Log{"foo", "foo/bar", "foo/baz", "qux", "qux/quux"}));

  // A later successful run forgets the failure.
  fail = false;
  EXPECT_TRUE(runner.Run(RunOptions{"qux", {}}).ok());
  EXPECT_EQ(runner.failed_phase(), "");
}

TEST(RunnerTest, PureParentsAndMissingRunAreFine) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  phases[0].run = nullptr;
  Runner runner(std::move(phases));
  ASSERT_TRUE(runner.Run(RunOptions{"foo", {}}).ok());
  EXPECT_EQ(*log, (Log{"foo/bar", "foo/baz"}));
}

TEST(RunnerTest, InitialisesDataOnceOverTwoRuns) {
  auto log = std::make_shared<Log>();
  Runner runner(Tree(log));
  int calls = 0;
  runner.SetDataInitializer([&calls, log] {
    ++calls;
    log->push_back("init");
    return Status::Ok();
  });
  ASSERT_TRUE(runner.InitData().ok());
  ASSERT_TRUE(runner.Run(RunOptions{"foo/bar", {}}).ok());
  ASSERT_TRUE(runner.Run(RunOptions{"qux/quux/corge", {}}).ok());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(*log, (Log{"init", "foo/bar", "qux/quux/corge"}));
}

// prepare runs for the selected phases only, in order, after data initialisation and before
// the first run; a skipped phase is not prepared.
TEST(RunnerTest, PreparesSelectedPhasesBeforeRunningAny) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  auto prepare = [log](const std::string& path) {
    return [log, path] { log->push_back("prepare " + path); };
  };
  phases[0].prepare = prepare("foo");
  phases[0].children[1].prepare = prepare("foo/baz");
  phases[1].children[0].prepare = prepare("qux/quux");
  Runner runner(std::move(phases));
  runner.SetDataInitializer([log] {
    log->push_back("init");
    return Status::Ok();
  });
  ASSERT_TRUE(runner.Run(RunOptions{std::nullopt, {"qux/quux"}}).ok());
  EXPECT_EQ(*log,
            (Log{"init", "prepare foo", "prepare foo/baz", "foo", "foo/bar", "foo/baz", "qux"}));
  log->clear();
  ASSERT_TRUE(runner.Run(RunOptions{"foo/bar", {}}).ok());
  EXPECT_EQ(*log, (Log{"foo/bar"}));
}

// check runs for the selected phases only, after data initialisation and before any prepare or
// run; the first failure stops the run before anything ran, as a failure of that phase.
TEST(RunnerTest, ChecksSelectedPhasesBeforePreparingOrRunningAny) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  bool fail = true;
  phases[0].prepare = [log] { log->push_back("prepare foo"); };
  phases[0].children[0].check = [log] {
    log->push_back("check foo/bar");
    return Status::Ok();
  };
  phases[1].children[0].check = [log, &fail] {
    log->push_back("check qux/quux");
    return fail ? InvalidArgument("patches/x.yaml: path not found") : Status::Ok();
  };
  Runner runner(std::move(phases));
  runner.SetDataInitializer([log] {
    log->push_back("init");
    return Status::Ok();
  });
  Status status = runner.Run({});
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "error execution phase qux/quux: patches/x.yaml: path not found");
  EXPECT_EQ(runner.failed_phase(), "qux/quux");
  EXPECT_EQ(*log, (Log{"init", "check foo/bar", "check qux/quux"}));

  log->clear();  // a skipped phase is not checked
  ASSERT_TRUE(runner.Run(RunOptions{std::nullopt, {"qux"}}).ok());
  EXPECT_EQ(*log, (Log{"check foo/bar", "prepare foo", "foo", "foo/bar", "foo/baz"}));
  log->clear();
  fail = false;
  ASSERT_TRUE(runner.Run(RunOptions{"qux", {}}).ok());
  EXPECT_EQ(*log, (Log{"check qux/quux", "qux", "qux/quux", "qux/quux/corge"}));
}

TEST(RunnerTest, DataInitialiserFailureStopsTheRunAndIsKept) {
  auto log = std::make_shared<Log>();
  Runner runner(Tree(log));
  int calls = 0;
  runner.SetDataInitializer([&calls] {
    ++calls;
    return InvalidArgument("unknown field \"foo\" in InitConfiguration");
  });
  for (int i = 0; i < 2; ++i) {
    Status status = runner.Run({});
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(status.message(), "unknown field \"foo\" in InitConfiguration");
    EXPECT_EQ(runner.failed_phase(), "");
  }
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(log->empty());
}

TEST(RunnerTest, RejectsInvalidTrees) {
  auto log = std::make_shared<Log>();
  auto with = [&log](auto change) {
    std::vector<Phase> phases = Tree(log);
    change(phases);
    return phases;
  };
  const std::vector<std::pair<std::string, std::vector<Phase>>> cases = {
      {"duplicate sibling", with([&](auto& p) { p[0].children.push_back(P(log, "foo/bar")); })},
      {"duplicate top level", with([&](auto& p) { p.push_back(P(log, "qux")); })},
      {"alias clashes with a sibling", with([](auto& p) { p[0].aliases = {"qux"}; })},
      {"not kebab-case", with([](auto& p) { p[0].children[0].name = "Bar"; })},
      {"double dash", with([](auto& p) { p[0].name = "f--oo"; })},
      {"reserved all", with([](auto& p) { p[0].children[0].name = "all"; })},
      {"unknown dependency", with([](auto& p) { p[1].dependencies = {"nope"}; })},
  };
  for (const auto& [name, phases] : cases) {
    Runner runner(phases);
    EXPECT_EQ(runner.tree_status().code(), StatusCode::kInternal) << name;
    EXPECT_EQ(runner.Run({}).code(), StatusCode::kInternal) << name;
    EXPECT_TRUE(log->empty()) << name;
  }
  // The same name under different parents is fine.
  Runner runner(with([&](auto& p) { p[1].children.push_back(P(log, "qux/bar")); }));
  EXPECT_TRUE(runner.tree_status().ok()) << runner.tree_status().message();
}

TEST(RunnerTest, AllPathsInExecutionOrder) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  phases[0].children[0].hidden = true;
  Runner runner(std::move(phases));
  EXPECT_EQ(runner.AllPaths(), (std::vector<std::string>{"foo", "foo/bar", "foo/baz", "qux",
                                                         "qux/quux", "qux/quux/corge"}));
}

TEST(RunnerTest, HelpListsVisiblePhasesLikeKubeadm) {
  auto log = std::make_shared<Log>();
  std::vector<Phase> phases = Tree(log);
  phases[0].children[1].hidden = true;  // foo/baz
  phases.push_back(P(log, "hidden", {P(log, "hidden/child-with-a-long-name")}));
  phases.back().hidden = true;
  Runner runner(std::move(phases));
  // Uses: foo, /bar, qux, /quux, /corge: the longest is 6, so names are padded to 8.
  EXPECT_EQ(runner.Help("init"),
            "The \"init\" command executes the following phases:\n"
            "```\n"
            "foo     Run foo\n"
            "  /bar    Run foo/bar\n"
            "qux     Run qux\n"
            "  /quux   Run qux/quux\n"
            "    /corge  Run qux/quux/corge\n"
            "```\n");
}

}  // namespace
}  // namespace kkadm::workflow
