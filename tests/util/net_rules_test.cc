// Address and name rules (util/net_rules.h): DNS-1123 and qualified-name forms against the
// regular expressions kkadm used before; IPs, CIDRs and host:port as Go and kubeadm read them.
#include "app/util/net_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::util {
namespace {

using kkadm::testing::OracleInputs;
using kkadm::testing::RegexDisagreements;
using ::testing::IsEmpty;

constexpr const char* kLabel = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr const char* kSubdomain =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";

std::vector<std::string> NameInputs() {
  return OracleInputs({"a",
                       "node-1",
                       "-a",
                       "a-",
                       "a--b",
                       "a.b",
                       "a..b",
                       ".a",
                       "a.",
                       "a.-b",
                       "a-.b",
                       "Node",
                       "my_name",
                       "my.name",
                       "123-abc",
                       "example.com/name",
                       std::string(63, 'a'),
                       std::string(64, 'a'),
                       std::string(253, 'a'),
                       std::string(254, 'a'),
                       std::string(125, 'a') + "." + std::string(127, 'b'),
                       std::string(126, 'a') + "." + std::string(127, 'b'),
                       "a\n",
                       "a.b\n"},
                      "a0-._A/\n", 5);
}

TEST(NetRulesTest, Dns1123LabelMatchesPattern) {
  const std::regex label(kLabel);
  for (const std::string& name : NameInputs()) {
    EXPECT_EQ(IsDns1123Label(name), name.size() <= 63 && std::regex_match(name, label)) << name;
  }
}

TEST(NetRulesTest, Dns1123SubdomainMatchesPattern) {
  EXPECT_THAT(RegexDisagreements(kSubdomain, NameInputs(), HasDns1123SubdomainForm), IsEmpty());
  const std::regex subdomain(kSubdomain);
  for (const std::string& name : NameInputs()) {
    EXPECT_EQ(IsDns1123Subdomain(name),
              !name.empty() && name.size() <= 253 && std::regex_match(name, subdomain))
        << name;
  }
}

TEST(NetRulesTest, QualifiedNameMatchesBothSpellingsOfThePattern) {
  // apimachinery's qualifiedNameFmt (preflight's Hostname check) and the taint key's name part.
  EXPECT_THAT(RegexDisagreements("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]", NameInputs(),
                                 HasQualifiedNameForm),
              IsEmpty());
  EXPECT_THAT(RegexDisagreements("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?", NameInputs(),
                                 HasQualifiedNameForm),
              IsEmpty());
}

// From pki/san_test.cc, where these rules lived.
TEST(NetRulesTest, ParsesAndFormatsIpsLikeGo) {
  EXPECT_EQ(CanonicalIp("10.0.0.1"), "10.0.0.1");
  EXPECT_EQ(CanonicalIp("010.000.0.1"), "10.0.0.1");  // ParseIPSloppy accepts leading zeros
  EXPECT_EQ(CanonicalIp("0001.2.3.4"), "1.2.3.4");
  EXPECT_EQ(CanonicalIp("FD00:0:0::0001"), "fd00::1");
  EXPECT_EQ(CanonicalIp("::ffff:192.168.1.2"), "192.168.1.2");
  EXPECT_EQ(ParseIp("::1")->size(), 16u);
  EXPECT_EQ(ParseIp("1.2.3.4")->size(), 4u);
  EXPECT_EQ(FormatIp(std::string("\0\0\0\0\0\0\0\0\0\0\xff\xff\x0a\0\0\x01", 16)), "10.0.0.1");
  for (const char* bad : {"256.0.0.1", "1.2.3", "1.2.3.4.5", "1.2.3.4:80", "example.com",
                          "fe80::1%eth0", "-1.2.3.4", "1.2.3.+4", ""}) {
    EXPECT_FALSE(CanonicalIp(bad)) << bad;
  }
  EXPECT_TRUE(IsUnspecifiedIp(*ParseIp("0.0.0.0")));
  EXPECT_TRUE(IsUnspecifiedIp(*ParseIp("::")));
  EXPECT_TRUE(IsUnspecifiedIp(*ParseIp("::ffff:0.0.0.0")));  // Go: equal to IPv4zero
  EXPECT_FALSE(IsUnspecifiedIp(*ParseIp("0.0.0.1")));
}

TEST(NetRulesTest, Dns1123) {
  EXPECT_TRUE(IsDns1123Subdomain("kubernetes.default.svc.cluster.local"));
  EXPECT_TRUE(IsDns1123Subdomain("a-b.c0"));
  EXPECT_FALSE(IsDns1123Subdomain("Upper.case"));
  EXPECT_FALSE(IsDns1123Subdomain("-lead"));
  EXPECT_FALSE(IsDns1123Subdomain("trail-."));
  EXPECT_FALSE(IsDns1123Subdomain("a..b"));
  EXPECT_FALSE(IsDns1123Subdomain(std::string(254, 'a')));
  EXPECT_TRUE(IsWildcardDns1123Subdomain("*.apps.example.com"));
  EXPECT_FALSE(IsWildcardDns1123Subdomain("*"));
  EXPECT_FALSE(IsWildcardDns1123Subdomain("a.*.example.com"));
}

// apimachinery limits a subdomain to 253 characters and nothing else: the certificates' copy of
// the rule also refused labels over 63 characters, so a SAN that validation accepted was left
// out of apiserver.crt; and the wildcard form's 253 counts the "*.", which validation's copy did
// not count.
TEST(NetRulesTest, SubdomainLimitsAreApimachinerys) {
  const std::string label64(64, 'a');
  EXPECT_FALSE(IsDns1123Label(label64));
  EXPECT_TRUE(IsDns1123Subdomain(label64 + ".example.com"));
  EXPECT_TRUE(IsWildcardDns1123Subdomain("*." + label64 + ".example.com"));
  const std::string name251 = std::string(125, 'a') + "." + std::string(125, 'b');
  EXPECT_TRUE(IsWildcardDns1123Subdomain("*." + name251));
  EXPECT_FALSE(IsWildcardDns1123Subdomain("*.c" + name251));  // 254 characters in all
  EXPECT_TRUE(IsDns1123Subdomain("c" + name251));
}

TEST(NetRulesTest, CidrsAsParseCidrSloppy) {
  auto v4 = ParseCidr("10.96.0.0/12");
  ASSERT_TRUE(v4.has_value());
  EXPECT_EQ(v4->prefix, 12);
  EXPECT_EQ(v4->Bits(), 32);
  EXPECT_FALSE(v4->IsIpv6());
  auto v6 = ParseCidr("fd00:10:96::/108");
  ASSERT_TRUE(v6.has_value());
  EXPECT_EQ(v6->Bits(), 128);
  EXPECT_TRUE(v6->IsIpv6());
  EXPECT_TRUE(ParseCidr("010.96.0.0/012").has_value());
  EXPECT_FALSE(ParseCidr("::ffff:10.96.0.0/120")->IsIpv6());  // netutils.IsIPv6CIDR: IPv4-mapped
  for (const char* bad : {"10.96.0.0", "10.96.0.0/33", "fd00::/129", "10.96.0.0/", "10.96.0.0/+8",
                          "10.96.0.0/8 ", "nonsense/8", "/8"}) {
    EXPECT_FALSE(ParseCidr(bad).has_value()) << bad;
  }
}

TEST(NetRulesTest, IndexedIpInCidr) {
  EXPECT_EQ(*IndexedIpInCidr("10.96.0.0/12", 1), "10.96.0.1");
  EXPECT_EQ(*IndexedIpInCidr("10.100.5.7/12", 1), "10.96.0.1");  // masked first
  EXPECT_EQ(*IndexedIpInCidr("10.96.0.250/24", 10), "10.96.0.10");
  EXPECT_EQ(*IndexedIpInCidr("10.0.0.0/24", 256 - 1), "10.0.0.255");
  EXPECT_EQ(*IndexedIpInCidr("fd00:10:96::/108", 1), "fd00:10:96::1");
  EXPECT_EQ(*IndexedIpInCidr("10.0.0.0/8", 0x10203), "10.1.2.3");
  EXPECT_FALSE(IndexedIpInCidr("10.0.0.0/32", 1).has_value());
  EXPECT_FALSE(IndexedIpInCidr("10.0.0.0", 1).has_value());
  EXPECT_FALSE(IndexedIpInCidr("10.0.0.0/33", 1).has_value());
  EXPECT_FALSE(IndexedIpInCidr("nonsense/8", 1).has_value());
}

// From kubeconfig_test.cc, where ParseHostPort lived.
TEST(NetRulesTest, ParseHostPort) {
  auto hp = ParseHostPort("cp.example.com:8443");
  ASSERT_TRUE(hp.has_value());
  EXPECT_EQ(hp->host, "cp.example.com");
  EXPECT_EQ(hp->port, "8443");
  EXPECT_EQ(ParseHostPort("10.0.0.1")->port, "");
  EXPECT_EQ(ParseHostPort("[fd00::1]:6443")->host, "fd00::1");
  EXPECT_EQ(ParseHostPort("fd00::1")->host, "fd00::1");
  EXPECT_EQ(ParseHostPort("cp:0080")->port, "0080");  // strconv.ParseUint
  EXPECT_EQ(ParseHostPort("cp:")->port, "");          // net.SplitHostPort gives an empty port
  EXPECT_FALSE(ParseHostPort("cp:0").has_value());
  EXPECT_FALSE(ParseHostPort("cp:99999").has_value());
  EXPECT_FALSE(ParseHostPort("cp:+80").has_value());
  EXPECT_FALSE(ParseHostPort("Bad_Host:6443").has_value());
  EXPECT_FALSE(ParseHostPort("[fd00::1]").has_value());  // no port: the host is "[fd00::1]"
  EXPECT_EQ(ParseHostPort("cp:99999").error().message(),
            "hostport cp:99999: port 99999 must be a valid number between 1 and 65535, inclusive");
}

TEST(NetRulesTest, SplitHostPortAsGo) {
  struct Case {
    const char* text;
    const char* host;  // nullptr: Go's error
    const char* port;
  };
  for (const Case& c :
       {Case{"a:1", "a", "1"}, Case{"[::1]:80", "::1", "80"}, Case{"a:", "a", ""},
        Case{"[a]:", "a", ""}, Case{"a", nullptr, ""}, Case{"[::1]", nullptr, ""},
        Case{"::1", nullptr, ""}, Case{"[::1]80", nullptr, ""}, Case{"[::1]:80:90", nullptr, ""},
        Case{"a]:1", nullptr, ""}, Case{"[a:1", nullptr, ""}, Case{"a[:1", nullptr, ""},
        Case{"", nullptr, ""}}) {
    auto hp = SplitHostPort(c.text);
    ASSERT_EQ(hp.has_value(), c.host != nullptr) << c.text;
    if (hp) {
      EXPECT_EQ(hp->host, c.host) << c.text;
      EXPECT_EQ(hp->port, c.port) << c.text;
    }
  }
}

TEST(NetRulesTest, JoinHostPortBracketsIPv6) {
  EXPECT_EQ(JoinHostPort("10.0.0.1", 6443), "10.0.0.1:6443");
  EXPECT_EQ(JoinHostPort("fd00::1", 2379), "[fd00::1]:2379");
  EXPECT_EQ(JoinHostPort("cp.example.com", "443"), "cp.example.com:443");
  EXPECT_EQ(JoinHostPort("::ffff:10.0.0.1", "443"), "[::ffff:10.0.0.1]:443");
}

// netutils.IsIPv6String, which picks etcd's and the API server's localhost ("::1" or "127.0.0.1"):
// an IPv4-mapped address is IPv4 (kkadm's inet_pton copy took it for IPv6).
TEST(NetRulesTest, IsIpv6AddressAsNetutils) {
  EXPECT_TRUE(IsIpv6Address("::1"));
  EXPECT_TRUE(IsIpv6Address("fd00::10"));
  EXPECT_FALSE(IsIpv6Address("127.0.0.1"));
  EXPECT_FALSE(IsIpv6Address("node.example"));
  EXPECT_FALSE(IsIpv6Address("::ffff:10.0.0.1"));
}

// Go's net.ParseIP and net.ParseCIDR, which Go's proxy rules use: no leading zeros in IPv4.
TEST(NetRulesTest, StrictParsingAsGoNet) {
  EXPECT_EQ(ParseIpStrict("10.0.0.1"), ParseIp("10.0.0.1"));
  EXPECT_EQ(ParseIpStrict("0.0.0.0"), ParseIp("0.0.0.0"));
  EXPECT_EQ(ParseIpStrict("fd00::1"), ParseIp("fd00::1"));
  EXPECT_EQ(ParseIpStrict("::ffff:10.0.0.1"), ParseIp("10.0.0.1"));
  for (const char* bad : {"010.0.0.1", "10.0.0.01", "10.00.0.1", "::ffff:010.0.0.1", "10.0.0",
                          "10.0.0.256", "fd00::1%eth0", "node-1", ""}) {
    EXPECT_FALSE(ParseIpStrict(bad)) << bad;
  }
  EXPECT_TRUE(ParseIp("010.0.0.1"));  // the sloppy reading accepts what the strict one refuses
  ASSERT_TRUE(ParseCidrStrict("10.96.0.0/12"));
  EXPECT_EQ(ParseCidrStrict("10.96.0.0/12")->prefix, 12);
  EXPECT_EQ(ParseCidrStrict("fd00::/108")->prefix, 108);
  for (const char* bad : {"010.96.0.0/12", "10.96.0.0/33", "10.96.0.0", "fd00::/129", "/8"}) {
    EXPECT_FALSE(ParseCidrStrict(bad)) << bad;
  }
  EXPECT_TRUE(ParseCidr("010.96.0.0/12"));
}

TEST(NetRulesTest, CidrContainsAsGoIpNet) {
  auto ip = [](const char* text) { return *ParseIp(text); };
  const Cidr v4 = *ParseCidr("10.96.1.2/12");
  EXPECT_TRUE(CidrContains(v4, ip("10.96.0.1")));
  EXPECT_TRUE(CidrContains(v4, ip("10.111.255.255")));
  EXPECT_TRUE(CidrContains(v4, ip("::ffff:10.96.0.1")));
  EXPECT_FALSE(CidrContains(v4, ip("10.112.0.0")));
  EXPECT_FALSE(CidrContains(v4, ip("fd00::1")));
  const Cidr v6 = *ParseCidr("fd00::/108");
  EXPECT_TRUE(CidrContains(v6, ip("fd00::1")));
  EXPECT_FALSE(CidrContains(v6, ip("fd00::10:0")));
  EXPECT_FALSE(CidrContains(v6, ip("10.0.0.1")));
  // An IPv4-mapped network is compared as IPv4, on the last 32 bits of its mask.
  const Cidr mapped = *ParseCidr("::ffff:10.0.0.0/104");
  EXPECT_TRUE(CidrContains(mapped, ip("10.1.2.3")));
  EXPECT_FALSE(CidrContains(mapped, ip("11.0.0.1")));
  EXPECT_TRUE(CidrContains(*ParseCidr("0.0.0.0/0"), ip("192.0.2.1")));
  EXPECT_FALSE(CidrContains(*ParseCidr("0.0.0.0/0"), ip("::1")));
}

TEST(NetRulesTest, LoopbackAsGo) {
  for (const char* yes : {"127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1"}) {
    EXPECT_TRUE(IsLoopbackIp(*ParseIp(yes))) << yes;
  }
  for (const char* no : {"128.0.0.1", "::2", "::", "0.0.0.0", "fd00::1"}) {
    EXPECT_FALSE(IsLoopbackIp(*ParseIp(no))) << no;
  }
}

}  // namespace
}  // namespace kkadm::util
