#include "app/phases/preflight/checks_system.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <charconv>

#include "tests/fakes/regex_oracle.h"
#include "tests/phases/preflight/preflight_test_env.h"

namespace kkadm::phases::preflight {
namespace {

using kkadm::testing::PreflightEnv;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(PreflightSystemChecksTest, PathCheckNameReplacesSlashes) {
  EXPECT_EQ(PathCheckName("FileAvailable", "/etc/kubernetes/manifests/etcd.yaml"),
            "FileAvailable--etc-kubernetes-manifests-etcd.yaml");
  EXPECT_EQ(PathCheckName("FileExisting", "iptables"), "FileExisting-iptables");
}

TEST(PreflightSystemChecksTest, IsPrivilegedUser) {
  PreflightEnv env;
  auto check = NewIsPrivilegedUserCheck();
  EXPECT_EQ(check->Name(), "IsPrivilegedUser");
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  env.machine.euid = 1000;
  EXPECT_THAT(env.Run(*check).errors, ElementsAre("user is not running as root"));
}

TEST(PreflightSystemChecksTest, NumCpu) {
  PreflightEnv env;
  auto check = NewNumCpuCheck(2);
  EXPECT_EQ(check->Name(), "NumCPU");
  env.machine.cpus = 2;
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  env.machine.cpus = 1;
  EXPECT_THAT(env.Run(*check).errors,
              ElementsAre("the number of available CPUs 1 is less than the required 2"));
}

TEST(PreflightSystemChecksTest, Mem) {
  PreflightEnv env;
  auto check = NewMemCheck(1700);
  EXPECT_EQ(check->Name(), "Mem");
  env.machine.memory_bytes = 1700ULL << 20;
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  env.machine.memory_bytes = (1700ULL << 20) - 1;
  EXPECT_THAT(env.Run(*check).errors,
              ElementsAre("the system RAM (1699 MB) is less than the minimum 1700 MB"));
}

TEST(PreflightSystemChecksTest, KubernetesVersionWarnsOnlyForANewerMinor) {
  PreflightEnv env;
  EXPECT_EQ(NewKubernetesVersionCheck("v1.32.0", "v1.32.0")->Name(), "KubernetesVersion");
  for (const char* ok : {"v1.32.9", "v1.31.0", "v1.32.1-rc.1"}) {
    auto result = env.Run(*NewKubernetesVersionCheck(ok, "v1.32.0"));
    EXPECT_THAT(result.warnings, IsEmpty()) << ok;
    EXPECT_THAT(result.errors, IsEmpty()) << ok;
  }
  auto result = env.Run(*NewKubernetesVersionCheck("v1.33.0-alpha.1", "v1.32.0"));
  EXPECT_THAT(result.warnings,
              ElementsAre("Kubernetes version is greater than kubeadm version. Please consider to "
                          "upgrade kubeadm. Kubernetes version: 1.33.0-alpha.1. Kubeadm version: "
                          "1.32.x"));
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_THAT(env.Run(*NewKubernetesVersionCheck("latest", "v1.32.0")).errors,
              ElementsAre("couldn't parse Kubernetes version \"latest\""));
}

TEST(PreflightSystemChecksTest, PortOpen) {
  PreflightEnv env;
  auto check = NewPortOpenCheck(6443);
  EXPECT_EQ(check->Name(), "Port-6443");
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  env.machine.busy_ports.insert(6443);
  EXPECT_THAT(env.Run(*check).errors, ElementsAre("Port 6443 is in use"));
}

TEST(PreflightSystemChecksTest, SwapWarnsWhenADeviceIsListed) {
  PreflightEnv env;
  auto check = NewSwapCheck();
  EXPECT_EQ(check->Name(), "Swap");
  EXPECT_THAT(env.Run(*check).warnings, IsEmpty());
  env.machine.system_files["/proc/swaps"] +=
      "/swapfile                               file\t\t1048572\t\t0\t\t-2\n";
  auto result = env.Run(*check);
  ASSERT_EQ(result.warnings.size(), 1u);
  EXPECT_THAT(result.warnings[0], ::testing::StartsWith("swap is supported for cgroup v2 only."));
  EXPECT_THAT(result.errors, IsEmpty());
  env.machine.system_files.erase("/proc/swaps");
  EXPECT_THAT(env.Run(*check).warnings, IsEmpty());
}

TEST(PreflightSystemChecksTest, InPathMandatoryIsAnErrorOptionalAWarning) {
  PreflightEnv env;
  auto mandatory = NewInPathCheck("iptables", true);
  auto optional = NewInPathCheck("socat", false);
  EXPECT_EQ(mandatory->Name(), "FileExisting-iptables");
  EXPECT_EQ(optional->Name(), "FileExisting-socat");
  EXPECT_THAT(env.Run(*mandatory).errors, IsEmpty());
  EXPECT_THAT(env.Run(*optional).warnings, IsEmpty());
  env.machine.binaries.clear();
  EXPECT_THAT(env.Run(*mandatory).errors, ElementsAre("iptables not found in system path"));
  auto result = env.Run(*optional);
  EXPECT_THAT(result.warnings, ElementsAre("socat not found in system path"));
  EXPECT_THAT(result.errors, IsEmpty());
}

TEST(PreflightSystemChecksTest, FileContent) {
  PreflightEnv env;
  auto check = NewFileContentCheck("/proc/sys/net/ipv4/ip_forward", "1");
  EXPECT_EQ(check->Name(), "FileContent--proc-sys-net-ipv4-ip_forward");
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  env.machine.system_files["/proc/sys/net/ipv4/ip_forward"] = "0\n";
  EXPECT_THAT(env.Run(*check).errors,
              ElementsAre("/proc/sys/net/ipv4/ip_forward contents are not set to 1"));
  env.machine.system_files.erase("/proc/sys/net/ipv4/ip_forward");
  EXPECT_THAT(env.Run(*check).errors, ElementsAre("/proc/sys/net/ipv4/ip_forward does not exist"));
}

TEST(PreflightSystemChecksTest, HostnameMatchingTheMachinePasses) {
  PreflightEnv env;
  env.machine.hostname = "Node-1";
  auto check = NewHostnameCheck("node-1");
  EXPECT_EQ(check->Name(), "Hostname");
  auto result = env.Run(*check);
  EXPECT_THAT(result.warnings, IsEmpty());
  EXPECT_THAT(result.errors, IsEmpty());
}

TEST(PreflightSystemChecksTest, HostnameWarnsOnBadFormAndOtherName) {
  PreflightEnv env;
  auto result = env.Run(*NewHostnameCheck("-bad"));
  ASSERT_EQ(result.warnings.size(), 2u);
  EXPECT_EQ(result.warnings[0],
            "invalid node name format \"-bad\": name part must consist of alphanumeric "
            "characters, '-', '_' or '.', and must start and end with an alphanumeric character "
            // Two spaces before "or": apimachinery's RegexError text, kept exactly.
            "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
            "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
  EXPECT_THAT(result.warnings[1], ::testing::HasSubstr("hostname \"-bad\" is not this machine's"));
  EXPECT_THAT(result.errors, IsEmpty());
  EXPECT_THAT(env.Run(*NewHostnameCheck(std::string(64, 'a'))).warnings[0],
              ::testing::HasSubstr("name part must be no more than 63 characters"));
  EXPECT_THAT(env.Run(*NewHostnameCheck("a/b/c")).warnings[0],
              ::testing::HasSubstr("a qualified name must consist of"));
}

TEST(PreflightSystemChecksTest, ParseSemVer) {
  auto v = ParseSemVer("v1.32.0-rc.1+abc");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->major, 1);
  EXPECT_EQ(v->minor, 32);
  EXPECT_EQ(v->ToString(), "1.32.0-rc.1+abc");
  EXPECT_FALSE(ParseSemVer("1.32").has_value());
  EXPECT_FALSE(ParseSemVer("v01.2.3").has_value());
}

// checks_system.cc's ParseSemVer before, regex and all.
std::optional<SemVer> OracleParseSemVer(const std::string& text) {
  static const std::regex kPattern(R"(^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*))"
                                   R"(((-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?)$)");
  std::smatch m;
  if (!std::regex_match(text, m, kPattern)) return std::nullopt;
  SemVer version;
  version.rest = m[4];
  int* parts[] = {&version.major, &version.minor, &version.patch};
  for (int i = 0; i < 3; ++i) {
    std::string digits = m[i + 1];
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *parts[i]);
    if (ec != std::errc()) return std::nullopt;  // out of range
  }
  return version;
}

TEST(PreflightSystemChecksTest, ParseSemVerAgreesWithTheRegexParser) {
  const auto inputs = kkadm::testing::OracleInputs(
      {"v1.32.0", "1.32.0", "v1.32.0-rc.1+abc", "v1.32.0+abc", "v1.32.0-", "v1.32.0+", "v1.32.0--",
       "v1.32.0-a+b+c", "v1.32.0-a_b", "v1.32.0-a.b-c+d.e-f", "v0.0.0", "v00.0.0", "v1.02.0",
       "v1.2.03", "v2147483647.0.0", "v2147483648.0.0", "v1.32.0\n", "vv1.32.0"},
      "v10.-+a_\n", 4);
  for (const std::string& text : inputs) {
    const auto want = OracleParseSemVer(text);
    const auto got = ParseSemVer(text);
    ASSERT_EQ(got.has_value(), want.has_value()) << text;
    if (!want) continue;
    EXPECT_EQ(got->major, want->major) << text;
    EXPECT_EQ(got->minor, want->minor) << text;
    EXPECT_EQ(got->patch, want->patch) << text;
    EXPECT_EQ(got->rest, want->rest) << text;
  }
}

}  // namespace
}  // namespace kkadm::phases::preflight
