// FlattenJson names fields as a user names them in a config file.
#include "app/util/json_fields.h"

#include <gtest/gtest.h>

namespace kkadm::util {
namespace {

TEST(JsonFieldsTest, NamesNestedListAndNamedEntries) {
  const auto doc = nlohmann::json::parse(R"({
    "apiServer": {"certSANs": ["a", "b"],
                  "extraArgs": [{"name": "enable-admission-plugins", "value": "NodeRestriction"}],
                  "extraVolumes": [{"name": "audit", "hostPath": "/var/log", "readOnly": true}]},
    "empty": {}, "none": [], "port": 6443})");
  std::vector<std::string> lines;
  for (const auto& field : FlattenJson(doc)) lines.push_back(field.name + "=" + field.value);
  EXPECT_EQ(lines, (std::vector<std::string>{
                       "apiServer.certSANs[0]=a", "apiServer.certSANs[1]=b",
                       "apiServer.extraArgs[enable-admission-plugins]=NodeRestriction",
                       "apiServer.extraVolumes[audit].hostPath=/var/log",
                       "apiServer.extraVolumes[audit].readOnly=true", "port=6443"}));
}

TEST(JsonFieldsTest, FieldIsUnderItsParentsOnly) {
  EXPECT_TRUE(FieldIsUnder("apiServer.certSANs[0]", "apiServer"));
  EXPECT_TRUE(FieldIsUnder("apiServer.certSANs[0]", "apiServer.certSANs"));
  EXPECT_TRUE(FieldIsUnder("etcd", "etcd"));
  EXPECT_FALSE(FieldIsUnder("etcdFoo", "etcd"));
  EXPECT_FALSE(FieldIsUnder("api", "apiServer"));
}

}  // namespace
}  // namespace kkadm::util
