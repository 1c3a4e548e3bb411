// util::yaml's reader: plain scalars as kubeadm's go-yaml v2 resolves them, documents, key order,
// and errors naming the text's source.
#include <gtest/gtest.h>

#include "app/util/yaml/yaml.h"

namespace kkadm::util::yaml {
namespace {

using nlohmann::json;

TEST(YamlReadTest, ResolvesPlainScalarsAndKeepsQuotedStrings) {
  auto docs = ReadDocuments(R"(
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

TEST(YamlReadTest, ResolvesYaml11ScalarsAsKubeadmsGoyamlV2) {
  auto docs = ReadDocuments(R"(
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
date: 2024-01-02
unsigned: 9223372036854775808
huge: 1e400
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
  EXPECT_EQ(d["date"], "2024-01-02");  // go-yaml hands interface{} a timestamp's text
  EXPECT_TRUE(d["unsigned"].is_number_unsigned());
  EXPECT_EQ(d["unsigned"].get<std::uint64_t>(), 9223372036854775808u);
  EXPECT_EQ(d["huge"], "1e400");  // Go's ParseFloat fails with ErrRange: the text stays
}

// The three readers this one replaced disagreed on these; each now reads as kubeadm does. The
// configuration reader took y, n, 0755, 0o17, 0b11 and !!int for strings and .inf for a number;
// the Kubernetes-object reader read 0o17 and 0b11 as 0 and !!str 12 as a number.
TEST(YamlReadTest, EveryDialectReadsScalarsAsKubeadm) {
  const std::string text = "a: y\nb: n\nc: 0755\nd: 0o17\ne: 0b11\nf: !!int \"12\"\ng: !!str 12\n";
  auto config = ReadDocumentsInFileOrder(text, {.source = "kubeadm.yaml"});
  auto object = Read(text);
  ASSERT_TRUE(config.has_value()) << config.status().ToString();
  ASSERT_TRUE(object.has_value()) << object.status().ToString();
  const json want = {{"a", true}, {"b", false}, {"c", 493}, {"d", 15},
                     {"e", 3},    {"f", 12},    {"g", "12"}};
  EXPECT_EQ(json((*config)[0].value), want);
  EXPECT_EQ(*object, want);
  EXPECT_EQ(ReadDocumentsInFileOrder("a: .inf\n", {.source = "kubeadm.yaml"}).status().ToString(),
            "kubeadm.yaml: value .inf cannot be represented in JSON");
  EXPECT_EQ(Read("a: -.Inf\n").status().ToString(), "value -.Inf cannot be represented in JSON");
}

TEST(YamlReadTest, SplitsDocumentsAndSkipsEmptyOnes) {
  auto docs = ReadDocuments("---\na: 1\n---\n# nothing here\n---\n[1, {b: [x]}]\n");
  ASSERT_TRUE(docs.has_value());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0], json::parse(R"({"a":1})"));
  EXPECT_EQ((*docs)[1], json::parse(R"([1,{"b":["x"]}])"));
}

TEST(YamlReadTest, FileOrderKeepsKeysAndDocumentLines) {
  auto docs = ReadDocumentsInFileOrder("z: 1\na: 2\nm: 3\n---\n\nkind: B\n");
  ASSERT_TRUE(docs.has_value());
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0].value.dump(), R"({"z":1,"a":2,"m":3})");
  EXPECT_EQ((*docs)[0].line, 1);
  EXPECT_EQ((*docs)[1].line, 6);
}

TEST(YamlReadTest, ReadTakesTheFirstDocument) {
  EXPECT_EQ(*Read("a: 1\n---\nb: 2\n"), json({{"a", 1}}));
  EXPECT_TRUE(Read("")->is_null());
  EXPECT_TRUE(Read("# only a comment\n")->is_null());
}

TEST(YamlReadTest, RepeatedKeyKeepsItsLastValue) {
  EXPECT_EQ(*Read("a: 1\na: 2\n"), json({{"a", 2}}));
}

TEST(YamlReadTest, JsonIsYaml) {
  auto docs = ReadDocuments(R"({"op": "add", "path": "/a", "value": [1, "2", null, 3.25]})");
  ASSERT_TRUE(docs.has_value());
  EXPECT_EQ((*docs)[0], json::parse(R"({"op":"add","path":"/a","value":[1,"2",null,3.25]})"));
}

TEST(YamlReadTest, ReportsSyntaxErrorPosition) {
  EXPECT_EQ(ReadDocuments("a: b\n  c: d\n").status().ToString(),
            "line 2, column 4: illegal map value");
  EXPECT_EQ(ReadDocumentsInFileOrder("a: [1, 2\n", {.source = "/tmp/k.yaml"}).status().ToString(),
            "/tmp/k.yaml:2:1: end of sequence flow not found");
  EXPECT_EQ(Read("a: [1, 2\n").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadDocuments("a: .inf\n").status().ToString(),
            "value .inf cannot be represented in JSON");
  EXPECT_EQ(Read("? [a]\n: 1\n").status().ToString(), "map keys must be scalars");
}

TEST(YamlReadTest, RefusesExplodingAliases) {
  std::string text = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char c = 'b'; c <= 'f'; ++c) {
    std::string prev(1, static_cast<char>(c - 1));
    text += std::string(1, c) + ": &" + std::string(1, c) + " [*" + prev + ", *" + prev + ", *" +
            prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
            ", *" + prev + ", *" + prev + "]\n";
  }
  EXPECT_EQ(ReadDocuments(text).status().ToString(),
            "document is nested too deeply or expands to too many values");
  EXPECT_EQ(Read(text, {.source = "bomb.yaml"}).status().ToString(),
            "bomb.yaml: document is nested too deeply or expands to too many values");
}

}  // namespace
}  // namespace kkadm::util::yaml
