// DNS-1123 and qualified-name forms against the regular expressions kkadm used before.
#include "app/config/net_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/fakes/regex_oracle.h"

namespace kkadm::config {
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

TEST(NetRulesTest, DNS1123LabelMatchesPattern) {
  const std::regex label(kLabel);
  for (const std::string& name : NameInputs()) {
    EXPECT_EQ(IsDNS1123Label(name), name.size() <= 63 && std::regex_match(name, label)) << name;
  }
}

TEST(NetRulesTest, DNS1123SubdomainMatchesPattern) {
  EXPECT_THAT(RegexDisagreements(kSubdomain, NameInputs(), HasDNS1123SubdomainForm), IsEmpty());
  const std::regex subdomain(kSubdomain);
  for (const std::string& name : NameInputs()) {
    EXPECT_EQ(IsDNS1123Subdomain(name),
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

}  // namespace
}  // namespace kkadm::config
