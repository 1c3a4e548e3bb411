#include "app/phases/preflight/run_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/phases/preflight/preflight_test_env.h"

namespace kkadm::phases::preflight {
namespace {

using kkadm::testing::PreflightEnv;

// A check that reports what it was given.
class StaticCheck final : public Check {
 public:
  StaticCheck(std::string name, CheckResult result)
      : name_(std::move(name)), result_(std::move(result)) {}
  std::string Name() const override { return name_; }
  CheckResult Run(const util::Host&) const override { return result_; }

 private:
  std::string name_;
  CheckResult result_;
};

CheckList SampleChecks() {
  CheckList checks;
  checks.push_back(std::make_unique<StaticCheck>("Swap", CheckResult{{"swap is on"}, {}}));
  checks.push_back(std::make_unique<StaticCheck>("NumCPU", CheckResult{{}, {"too few CPUs"}}));
  checks.push_back(std::make_unique<StaticCheck>("Hostname", CheckResult{}));
  checks.push_back(
      std::make_unique<StaticCheck>("Port-6443", CheckResult{{}, {"Port 6443 is in use"}}));
  return checks;
}

TEST(PreflightRunChecksTest, PrintsWarningsThenFatalErrorsExactly) {
  PreflightEnv env;
  std::ostringstream out;
  util::Printer printer(out);
  Status status = RunChecks(SampleChecks(), env.host, {}, printer);
  EXPECT_EQ(status.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "[preflight] Some fatal errors occurred: NumCPU, Port-6443");
  EXPECT_EQ(out.str(),
            "\t[WARNING Swap]: swap is on\n"
            "[preflight] Some fatal errors occurred:\n"
            "\t[ERROR NumCPU]: too few CPUs\n"
            "\t[ERROR Port-6443]: Port 6443 is in use\n"
            "[preflight] If you know what you are doing, you can make a check non-fatal with "
            "`--ignore-preflight-errors=...`\n");
}

TEST(PreflightRunChecksTest, IgnoredErrorsPrintAsWarnings) {
  PreflightEnv env;
  std::ostringstream out;
  util::Printer printer(out);
  // Names in the set are already lower-cased; the checks' names are not.
  Status status = RunChecks(SampleChecks(), env.host, {"numcpu", "port-6443"}, printer);
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(out.str(),
            "\t[WARNING Swap]: swap is on\n"
            "\t[WARNING NumCPU]: too few CPUs\n"
            "\t[WARNING Port-6443]: Port 6443 is in use\n");
}

TEST(PreflightRunChecksTest, AllIgnoresEverything) {
  PreflightEnv env;
  std::ostringstream out;
  util::Printer printer(out);
  EXPECT_TRUE(RunChecks(SampleChecks(), env.host, {"all"}, printer).ok());
  EXPECT_EQ(out.str().find("[ERROR"), std::string::npos);
}

TEST(PreflightRunChecksTest, IgnoringOneLeavesTheOther) {
  PreflightEnv env;
  std::ostringstream out;
  util::Printer printer(out);
  Status status = RunChecks(SampleChecks(), env.host, {"numcpu"}, printer);
  EXPECT_EQ(status.message(), "[preflight] Some fatal errors occurred: Port-6443");
}

TEST(PreflightIgnoreListTest, KnownNamesAreLowerCase) {
  for (const auto& name : KnownCheckNames()) {
    std::string lower = name;
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    EXPECT_EQ(name, lower);
  }
  EXPECT_TRUE(KnownCheckNames().count("isprivilegeduser"));
  EXPECT_TRUE(KnownCheckNames().count("all"));
}

TEST(PreflightIgnoreListTest, PatternsAreRecognised) {
  for (const char* name :
       {"Port-6443", "port-10250", "FileAvailable--etc-kubernetes-manifests-etcd.yaml",
        "DirAvailable--var-lib-etcd", "FileContent--proc-sys-net-ipv4-ip_forward",
        "FileExisting-iptables", "Service-Kubelet", "SystemVerification", "CRI"}) {
    EXPECT_TRUE(IsKnownCheckName(name)) << name;
  }
  for (const char* name :
       {"Port-", "Port-abc", "Port-1234567", "FileAvailable-", "NumCPUs", "swapp"}) {
    EXPECT_FALSE(IsKnownCheckName(name)) << name;
  }
}

TEST(PreflightIgnoreListTest, ParseMergesFlagAndConfigLowerCased) {
  auto names = ParseIgnorePreflightErrors({"NumCPU,Mem", " Swap "}, {"port-6443"});
  ASSERT_TRUE(names.has_value()) << names.error().message();
  EXPECT_EQ(*names, (std::set<std::string>{"numcpu", "mem", "swap", "port-6443"}));
  auto all = ParseIgnorePreflightErrors({"ALL"}, {});
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(*all, std::set<std::string>{"all"});
  EXPECT_TRUE(ParseIgnorePreflightErrors({}, {})->empty());
}

TEST(PreflightIgnoreListTest, UnknownNameIsInvalidArgument) {
  auto names = ParseIgnorePreflightErrors({"NumCPU,NoSuchCheck"}, {});
  ASSERT_FALSE(names.has_value());
  EXPECT_EQ(names.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(names.error().message(),
              ::testing::HasSubstr("\"nosuchcheck\"; known checks: all, "));
}

TEST(PreflightIgnoreListTest, UnknownNameSuggestsTheCloseOnes) {
  auto names = ParseIgnorePreflightErrors({"Swp"}, {});
  ASSERT_FALSE(names.has_value());
  EXPECT_THAT(names.error().message(),
              ::testing::StartsWith("ignore-preflight-errors: unknown pre-flight check \"swp\" "
                                    "(did you mean \"swap\"?); known checks: all, cri, "));
  EXPECT_THAT(names.error().message(),
              ::testing::EndsWith(", port-<port>, fileavailable-<path>, "
                                  "diravailable-<path>, filecontent-<path>, "
                                  "fileexisting-<path>"));
}

TEST(PreflightIgnoreListTest, AllWithIndividualNamesIsInvalidArgument) {
  auto names = ParseIgnorePreflightErrors({"all"}, {"swap"});
  ASSERT_FALSE(names.has_value());
  EXPECT_EQ(names.error().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(names.error().message(),
              ::testing::HasSubstr("don't specify individual checks if 'all' is used"));
}

}  // namespace
}  // namespace kkadm::phases::preflight
