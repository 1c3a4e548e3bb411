#include "app/util/pki/san.h"

#include <gtest/gtest.h>

namespace kkadm::util::pki {
namespace {

TEST(SanTest, ParsesAndFormatsIpsLikeGo) {
  EXPECT_EQ(CanonicalIp("10.0.0.1"), "10.0.0.1");
  EXPECT_EQ(CanonicalIp("010.000.0.1"), "10.0.0.1");  // ParseIPSloppy accepts leading zeros
  EXPECT_EQ(CanonicalIp("FD00:0:0::0001"), "fd00::1");
  EXPECT_EQ(CanonicalIp("::ffff:192.168.1.2"), "192.168.1.2");
  EXPECT_EQ(ParseIp("::1")->size(), 16u);
  EXPECT_EQ(ParseIp("1.2.3.4")->size(), 4u);
  EXPECT_FALSE(CanonicalIp("256.0.0.1"));
  EXPECT_FALSE(CanonicalIp("1.2.3"));
  EXPECT_FALSE(CanonicalIp("example.com"));
  EXPECT_FALSE(CanonicalIp("fe80::1%eth0"));
}

TEST(SanTest, Dns1123) {
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

TEST(SanTest, AppendSansClassifiesAndSkips) {
  AltNames names;
  auto skipped =
      AppendSans(names, {"10.1.1.1", "api.example.com", "*.example.com", "Bad_Name", "::1"});
  EXPECT_EQ(names.ips, (std::vector<std::string>{"10.1.1.1", "::1"}));
  EXPECT_EQ(names.dns_names, (std::vector<std::string>{"api.example.com", "*.example.com"}));
  EXPECT_EQ(skipped, std::vector<std::string>{"Bad_Name"});
}

TEST(SanTest, DedupSortsDnsKeepsIpOrder) {
  AltNames names{{"node", "kubernetes", "b", "kubernetes"},
                 {"10.96.0.1", "192.168.0.2", "10.96.0.1", "::1"}};
  RemoveDuplicateAltNames(names);
  EXPECT_EQ(names.dns_names, (std::vector<std::string>{"b", "kubernetes", "node"}));
  EXPECT_EQ(names.ips, (std::vector<std::string>{"10.96.0.1", "192.168.0.2", "::1"}));
}

TEST(SanTest, IndexedIpInCidr) {
  EXPECT_EQ(*IndexedIpInCidr("10.96.0.0/12", 1), "10.96.0.1");
  EXPECT_EQ(*IndexedIpInCidr("10.100.5.7/12", 1), "10.96.0.1");  // masked first
  EXPECT_EQ(*IndexedIpInCidr("10.0.0.0/24", 256 - 1), "10.0.0.255");
  EXPECT_EQ(*IndexedIpInCidr("fd00:10:96::/108", 1), "fd00:10:96::1");
  EXPECT_EQ(*IndexedIpInCidr("10.0.0.0/8", 0x10203), "10.1.2.3");
  EXPECT_FALSE(IndexedIpInCidr("10.0.0.0/32", 1).has_value());
  EXPECT_FALSE(IndexedIpInCidr("10.0.0.0", 1).has_value());
  EXPECT_FALSE(IndexedIpInCidr("10.0.0.0/33", 1).has_value());
  EXPECT_FALSE(IndexedIpInCidr("nonsense/8", 1).has_value());
}

}  // namespace
}  // namespace kkadm::util::pki
