#include "app/util/pki/san.h"

#include <gtest/gtest.h>

namespace kkadm::util::pki {
namespace {

TEST(SanTest, AppendSansClassifiesAndSkips) {
  AltNames names;
  auto skipped =
      AppendSans(names, {"10.1.1.1", "api.example.com", "*.example.com", "Bad_Name", "::1"});
  EXPECT_EQ(names.ips, (std::vector<std::string>{"10.1.1.1", "::1"}));
  EXPECT_EQ(names.dns_names, (std::vector<std::string>{"api.example.com", "*.example.com"}));
  EXPECT_EQ(skipped, std::vector<std::string>{"Bad_Name"});
  // A label over 63 characters is a DNS name still, as apimachinery's IsDNS1123Subdomain says
  // (and config validation accepts); it was skipped.
  const std::string long_label = std::string(64, 'a') + ".example.com";
  EXPECT_TRUE(AppendSans(names, {long_label}).empty());
  EXPECT_EQ(names.dns_names.back(), long_label);
}

TEST(SanTest, DedupSortsDnsKeepsIpOrder) {
  AltNames names{{"node", "kubernetes", "b", "kubernetes"},
                 {"10.96.0.1", "192.168.0.2", "10.96.0.1", "::1"}};
  RemoveDuplicateAltNames(names);
  EXPECT_EQ(names.dns_names, (std::vector<std::string>{"b", "kubernetes", "node"}));
  EXPECT_EQ(names.ips, (std::vector<std::string>{"10.96.0.1", "192.168.0.2", "::1"}));
}

}  // namespace
}  // namespace kkadm::util::pki
