#include "app/util/kube_yaml.h"

#include <gtest/gtest.h>

namespace kkadm::util {
namespace {

using nlohmann::json;

TEST(ToKubernetesYamlTest, SortedKeysAndUnindentedSequences) {
  json doc = {{"spec",
               {{"containers", json::array({{{"name", "a"}, {"command", {"x", "y"}}}})},
                {"hostNetwork", true}}},
              {"status", json::object()},
              {"apiVersion", "v1"}};
  EXPECT_EQ(ToKubernetesYaml(doc),
            "apiVersion: v1\n"
            "spec:\n"
            "  containers:\n"
            "  - command:\n"
            "    - x\n"
            "    - \"y\"\n"  // YAML 1.1 reads a plain y as true
            "    name: a\n"
            "  hostNetwork: true\n"
            "status: {}\n");
}

TEST(ToKubernetesYamlTest, QuotesOnlyWhatYamlWouldMisread) {
  json doc = {{"a", "true"},    {"b", "10"},         {"c", ""},
              {"d", "x: y"},    {"e", "::1"},        {"f", "250m"},
              {"g", "--flag="}, {"h", "yes"},        {"i", "1.5"},
              {"j", "- x"},     {"k", "a #b"},       {"l", "*,bootstrap"},
              {"m", "it's:"},   {"n", "line\nnext"}, {"o", "/health?exclude=NOSPACE&x=true"},
              {"p", 5},         {"q", nullptr}};
  EXPECT_EQ(ToKubernetesYaml(doc),
            "a: \"true\"\nb: \"10\"\nc: \"\"\nd: 'x: y'\ne: ::1\nf: 250m\ng: --flag=\n"
            "h: \"yes\"\ni: \"1.5\"\nj: '- x'\nk: 'a #b'\nl: '*,bootstrap'\nm: 'it''s:'\n"
            "\"n\": \"line\\nnext\"\no: /health?exclude=NOSPACE&x=true\np: 5\nq: null\n");
}

TEST(YamlToJsonTest, PlainScalarsResolveQuotedStayStrings) {
  auto doc = YamlToJson("a: 10\nb: \"10\"\nc: true\nd: 'yes'\ne: ~\nf: 250m\ng: [1, x]\nh: {}\n");
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ(*doc, json({{"a", 10},
                        {"b", "10"},
                        {"c", true},
                        {"d", "yes"},
                        {"e", nullptr},
                        {"f", "250m"},
                        {"g", {1, "x"}},
                        {"h", json::object()}}));
}

TEST(YamlToJsonTest, RoundTripsTheEmitter) {
  json doc = {{"k", {"true", "", "x: y", "a'b", 3, false, json::object(), json::array()}},
              {"m", {{"n", {{"o", "::1"}}}}}};
  auto back = YamlToJson(ToKubernetesYaml(doc));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(*back, doc);
}

TEST(YamlToJsonTest, SyntaxErrorIsInvalidArgument) {
  EXPECT_EQ(YamlToJson("a: [1, 2\n").error().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace kkadm::util
