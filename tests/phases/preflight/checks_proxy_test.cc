#include "app/phases/preflight/checks_proxy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/phases/preflight/preflight_test_env.h"

namespace kkadm::phases::preflight {
namespace {

using kkadm::testing::PreflightEnv;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(PreflightProxyChecksTest, NoProxyConfiguredPasses) {
  PreflightEnv env;
  EXPECT_EQ(NewHttpProxyCheck("192.0.2.10")->Name(), "HTTPProxy");
  EXPECT_THAT(env.Run(*NewHttpProxyCheck("192.0.2.10")).warnings, IsEmpty());
  env.machine.env["HTTP_PROXY"] = "http://proxy:3128";  // http only: not used for https
  EXPECT_THAT(env.Run(*NewHttpProxyCheck("192.0.2.10")).warnings, IsEmpty());
}

TEST(PreflightProxyChecksTest, ProxiedAddressWarns) {
  PreflightEnv env;
  env.machine.env["https_proxy"] = "proxy.example.com:3128";
  EXPECT_THAT(env.Run(*NewHttpProxyCheck("192.0.2.10")).warnings,
              ElementsAre("Connection to \"https://192.0.2.10\" uses proxy "
                          "\"http://proxy.example.com:3128\". If that is not intended, adjust "
                          "your proxy settings"));
  EXPECT_THAT(env.Run(*NewHttpProxyCheck("2001:db8::1")).warnings[0],
              ::testing::StartsWith("Connection to \"https://[2001:db8::1]:1234\" uses proxy"));
}

TEST(PreflightProxyChecksTest, PasswordIsRedacted) {
  PreflightEnv env;
  env.machine.env["HTTPS_PROXY"] = "http://user:s3cret@proxy:3128";
  auto proxy = HttpsProxyFor(env.machine, "192.0.2.10", "443");
  ASSERT_TRUE(proxy.has_value());
  EXPECT_EQ(*proxy, "http://user:xxxxx@proxy:3128");
}

TEST(PreflightProxyChecksTest, NoProxyRules) {
  PreflightEnv env;
  env.machine.env["HTTPS_PROXY"] = "http://proxy:3128";
  env.machine.env["NO_PROXY"] = "10.0.0.0/8, .example.com,node-1,192.0.2.10:8443";
  EXPECT_FALSE(HttpsProxyFor(env.machine, "10.96.0.1", "1234"));
  EXPECT_FALSE(HttpsProxyFor(env.machine, "api.example.com", "443"));
  EXPECT_FALSE(HttpsProxyFor(env.machine, "NODE-1", "443"));
  EXPECT_FALSE(HttpsProxyFor(env.machine, "localhost", "443"));
  EXPECT_FALSE(HttpsProxyFor(env.machine, "127.0.0.1", "443"));
  EXPECT_FALSE(HttpsProxyFor(env.machine, "192.0.2.10", "8443"));
  EXPECT_TRUE(HttpsProxyFor(env.machine, "192.0.2.10", "443"));
  EXPECT_TRUE(HttpsProxyFor(env.machine, "example.org", "443"));
  env.machine.env["NO_PROXY"] = "*";
  EXPECT_FALSE(HttpsProxyFor(env.machine, "192.0.2.10", "443"));
}

TEST(PreflightProxyChecksTest, CidrCheckUsesTheFirstAddress) {
  PreflightEnv env;
  auto check = NewHttpProxyCidrCheck("10.96.0.0/12");
  EXPECT_EQ(check->Name(), "HTTPProxyCIDR");
  EXPECT_THAT(env.Run(*check).warnings, IsEmpty());
  env.machine.env["HTTPS_PROXY"] = "http://proxy:3128";
  EXPECT_THAT(env.Run(*check).warnings,
              ElementsAre("connection to \"10.96.0.0/12\" uses proxy \"http://proxy:3128\". This "
                          "may lead to malfunctional cluster setup. Make sure that Pod and "
                          "Services IP ranges specified correctly as exceptions in proxy "
                          "configuration"));
  env.machine.env["NO_PROXY"] = "10.96.0.1";
  EXPECT_THAT(env.Run(*check).warnings, IsEmpty());
  env.machine.env["NO_PROXY"] = "fd00::1";
  EXPECT_THAT(env.Run(*NewHttpProxyCidrCheck("fd00::/108")).warnings, IsEmpty());
  EXPECT_THAT(env.Run(*NewHttpProxyCidrCheck("")).warnings, IsEmpty());
  EXPECT_THAT(
      env.Run(*NewHttpProxyCidrCheck("10.96.0.0/33")).errors,
      ElementsAre("error parsing CIDR \"10.96.0.0/33\": invalid CIDR address: 10.96.0.0/33"));
}

// Go's IPNet.Contains compares an IPv4-mapped NO_PROXY network as IPv4 (kkadm's own copy of the
// rules compared families and let such an entry exempt nothing).
TEST(PreflightProxyChecksTest, NoProxyMappedCidrCoversIpv4) {
  PreflightEnv env;
  env.machine.env["HTTPS_PROXY"] = "http://proxy:3128";
  env.machine.env["NO_PROXY"] = "::ffff:10.0.0.0/104";
  EXPECT_FALSE(HttpsProxyFor(env.machine, "10.0.0.5", "443"));
  EXPECT_TRUE(HttpsProxyFor(env.machine, "11.0.0.5", "443"));
  env.machine.env["NO_PROXY"] = "010.0.0.1,010.0.0.0/8";  // not addresses to Go's net.ParseIP
  EXPECT_TRUE(HttpsProxyFor(env.machine, "10.0.0.1", "443"));
}

// kubeadm reads the subnet with netutils.ParseCIDRSloppy (leading zeros allowed) and needs its
// first address (GetIndexedIP); kkadm's own copy read it strictly and computed past a /32.
TEST(PreflightProxyChecksTest, CidrCheckReadsTheSubnetAsKubeadm) {
  PreflightEnv env;
  env.machine.env["HTTPS_PROXY"] = "http://proxy:3128";
  EXPECT_THAT(env.Run(*NewHttpProxyCidrCheck("010.96.0.0/12")).warnings,
              ElementsAre(::testing::StartsWith("connection to \"010.96.0.0/12\" uses proxy")));
  env.machine.env["NO_PROXY"] = "10.96.0.1";
  EXPECT_THAT(env.Run(*NewHttpProxyCidrCheck("010.96.0.0/12")).warnings, IsEmpty());
  EXPECT_THAT(env.Run(*NewHttpProxyCidrCheck("10.96.0.0/32")).errors,
              ElementsAre(::testing::StartsWith(
                  "unable to get first IP address from the given CIDR (10.96.0.0/32): can't "
                  "generate IP with index 1 from subnet")));
}

}  // namespace
}  // namespace kkadm::phases::preflight
