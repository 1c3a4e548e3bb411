#include "app/util/patches/yaml_json.h"

#include <gtest/gtest.h>

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

TEST(YamlJsonTest, ResolvesPlainScalarsAndKeepsQuotedStrings) {
  auto docs = YamlDocumentsToJson(R"(
int: 42
neg: -7
hex: 0x1F
octal: 0o17
float: 1.5
exp: 1e3
t: true
f: False
n: null
tilde: ~
empty:
quoted: "42"
single: 'true'
tagged: !!str 12
text: hello world
version: v1.32.0
port: "6443"
)");
  ASSERT_TRUE(docs.has_value()) << docs.status().ToString();
  ASSERT_EQ(docs->size(), 1u);
  const json& d = (*docs)[0];
  EXPECT_EQ(d["int"], 42);
  EXPECT_TRUE(d["int"].is_number_integer());
  EXPECT_EQ(d["neg"], -7);
  EXPECT_EQ(d["hex"], 31);
  EXPECT_EQ(d["octal"], 15);
  EXPECT_EQ(d["float"], 1.5);
  EXPECT_EQ(d["exp"], 1000.0);
  EXPECT_EQ(d["t"], true);
  EXPECT_EQ(d["f"], false);
  EXPECT_TRUE(d["n"].is_null());
  EXPECT_TRUE(d["tilde"].is_null());
  EXPECT_TRUE(d["empty"].is_null());
  EXPECT_EQ(d["quoted"], "42");
  EXPECT_EQ(d["single"], "true");
  EXPECT_EQ(d["tagged"], "12");
  EXPECT_EQ(d["text"], "hello world");
  EXPECT_EQ(d["version"], "v1.32.0");
  EXPECT_EQ(d["port"], "6443");
}

TEST(YamlJsonTest, ResolvesYaml11ScalarsAsKubeadmsGoyamlV2) {
  auto docs = YamlDocumentsToJson(R"(
yes: yes
on: On
off: OFF
y: y
n: N
mode: 0755
big: 1_000
notoctal: 08
binary: 0b101
neghex: -0x10
plus: +1
version: 1.2.3
mixed: 12abc
dash: -x
half: .5
)");
  ASSERT_TRUE(docs.has_value()) << docs.status().ToString();
  const json& d = (*docs)[0];
  EXPECT_EQ(d["yes"], true);
  EXPECT_EQ(d["on"], true);
  EXPECT_EQ(d["off"], false);
  EXPECT_EQ(d["y"], true);
  EXPECT_EQ(d["n"], false);
  EXPECT_EQ(d["mode"], 493);
  EXPECT_EQ(d["big"], 1000);
  EXPECT_TRUE(d["notoctal"].is_number_float());
  EXPECT_EQ(d["notoctal"], 8.0);
  EXPECT_EQ(d["binary"], 5);
  EXPECT_EQ(d["neghex"], -16);
  EXPECT_EQ(d["plus"], 1);
  EXPECT_EQ(d["version"], "1.2.3");
  EXPECT_EQ(d["mixed"], "12abc");
  EXPECT_EQ(d["dash"], "-x");
  EXPECT_EQ(d["half"], 0.5);
}

TEST(YamlJsonTest, SplitsDocumentsAndSkipsEmptyOnes) {
  auto docs = YamlDocumentsToJson("---\na: 1\n---\n# nothing here\n---\n[1, {b: [x]}]\n");
  ASSERT_TRUE(docs.has_value());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0], json::parse(R"({"a":1})"));
  EXPECT_EQ((*docs)[1], json::parse(R"([1,{"b":["x"]}])"));
}

TEST(YamlJsonTest, JsonIsYaml) {
  auto docs = YamlDocumentsToJson(R"({"op": "add", "path": "/a", "value": [1, "2", null, 3.25]})");
  ASSERT_TRUE(docs.has_value());
  EXPECT_EQ((*docs)[0], json::parse(R"({"op":"add","path":"/a","value":[1,"2",null,3.25]})"));
}

TEST(YamlJsonTest, ReportsSyntaxErrorPosition) {
  EXPECT_EQ(YamlDocumentsToJson("a: b\n  c: d\n").status().ToString(),
            "line 2, column 4: illegal map value");
  EXPECT_EQ(YamlDocumentsToJson("a: .inf\n").status().ToString(),
            "value .inf cannot be represented in JSON");
}

TEST(YamlJsonTest, RefusesExplodingAliases) {
  std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'f'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    text += std::string(1, c) + ": &" + std::string(1, c) + " [*" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" +
            prev + "]\n";
  }
  EXPECT_EQ(YamlDocumentsToJson(text).status().ToString(),
            "document is nested too deeply or expands to too many values");
}

}  // namespace
}  // namespace kkadm::util::patches
