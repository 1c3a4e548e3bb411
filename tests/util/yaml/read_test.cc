// util::yaml's reader: plain scalars as kubeadm's go-yaml v2 resolves them, documents, key order,
// and errors naming the text's source.
#include <gtest/gtest.h>

#include "app/util/yaml/limits.h"
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
            "kubeadm.yaml:1:4: value .inf cannot be represented in JSON");
  EXPECT_EQ(Read("a: -.Inf\n").status().ToString(),
            "line 1, column 4: value -.Inf cannot be represented in JSON");
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

TEST(YamlReadTest, RefusesARepeatedKeyNamingIt) {
  EXPECT_EQ(Read("a: 1\nb: 2\na: 3\n").status().ToString(),
            "line 3, column 1: duplicate key \"a\"");
  EXPECT_EQ(ReadDocumentsInFileOrder("x:\n  a: 1\n  \"a\": 2\n", {.source = "c.yaml"})
                .status()
                .ToString(),
            "c.yaml:3:3: duplicate key \"a\"");
  // The same key in two maps, or once per document, is no repeat.
  EXPECT_TRUE(ReadDocuments("a: {a: 1}\nb: {a: 2}\n---\na: 3\n").has_value());
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
            "line 1, column 4: value .inf cannot be represented in JSON");
  EXPECT_EQ(Read("? [a]\n: 1\n").status().ToString(), "line 1, column 3: map keys must be scalars");
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
            "line 5, column 36: aliases expand the text to more than 100000 values (the limit)");
  EXPECT_EQ(Read(text, {.source = "bomb.yaml"}).status().ToString(),
            "bomb.yaml:5:36: aliases expand the text to more than 100000 values (the limit)");
}

// Nine levels of nine aliases and a long string at the bottom: few values, many bytes.
TEST(YamlReadTest, RefusesAliasesExpandingToTooManyBytes) {
  std::string text = "a: &a " + std::string(100'000, 'x') + "\n";
  text += "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n";
  text += "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n";
  EXPECT_EQ(Read(text).status().ToString(),
            "line 3, column 36: aliases expand the text to more than 8388608 bytes of keys and "
            "scalars (the limit)");
}

TEST(YamlReadTest, AliasesWithinTheLimitsAreCopies) {
  auto doc = Read("a: &x {k: [1, two]}\nb: *x\n&y key: 1\n*y : 2\n");
  EXPECT_EQ(doc.status().ToString(), "line 4, column 1: duplicate key \"key\"");
  doc = Read("a: &x {k: [1, two]}\nb: *x\nc: &y key\n*y : 2\n");
  ASSERT_TRUE(doc.has_value()) << doc.status().ToString();
  EXPECT_EQ(*doc, json::parse(R"({"a":{"k":[1,"two"]},"b":{"k":[1,"two"]},"c":"key","key":2})"));
  EXPECT_EQ(Read("a: &x [1, *x]\n").status().ToString(),
            "line 1, column 11: an alias refers to a value that holds it");
  EXPECT_EQ(Read("a: &x [1]\n*x : 2\n").status().ToString(),
            "line 2, column 1: map keys must be scalars");
}

TEST(YamlReadTest, RefusesDeepNesting) {
  const std::string deep = std::string(10'000, '[') + std::string(10'000, ']');
  EXPECT_EQ(Read(deep, {.source = "deep.yaml"}).status().ToString(),
            "deep.yaml:1:201: nested more than 200 levels deep (the limit)");
  std::string blocks;
  for (int i = 0; i < 10'000; ++i) blocks += "- ";
  EXPECT_EQ(ReadDocuments(blocks + "x\n").status().ToString(),
            "line 1, column 401: nested more than 200 levels deep (the limit)");
  const std::string fine = std::string(200, '[') + std::string(200, ']');
  EXPECT_TRUE(Read(fine).has_value());
}

TEST(YamlReadTest, RefusesTooManyDocumentsOrValuesOrBytes) {
  std::string docs;
  for (int i = 0; i < 1'001; ++i) docs += "---\n";
  EXPECT_EQ(ReadDocuments(docs).status().ToString(),
            "line 1001, column 1: more than 1000 documents (the limit)");
  std::string items;
  for (int i = 0; i < 100'000; ++i) items += "- 1\n";
  EXPECT_EQ(ReadDocuments(items).status().ToString(),
            "line 100000, column 3: the text holds more than 100000 values (the limit)");
  const std::string big = "a: " + std::string(kMaxTextBytes, 'x');
  EXPECT_EQ(ReadDocuments(big, {.source = "big.yaml"}).status().ToString(),
            "big.yaml: 4194307 bytes is over the limit of 4194304 bytes (4 MiB)");
}

// A flat map of 30,000 keys in file order is read in linear time (a quadratic search for
// repeated keys would take seconds).
TEST(YamlReadTest, ReadsAWideMapQuickly) {
  std::string text;
  for (int i = 0; i < 30'000; ++i)
    text += "key" + std::to_string(i) + ": " + std::to_string(i) + "\n";
  auto docs = ReadDocumentsInFileOrder(text);
  ASSERT_TRUE(docs.has_value());
  EXPECT_EQ((*docs)[0].value.size(), 30'000u);
  EXPECT_EQ((*docs)[0].value.begin().key(), "key0");
}

TEST(YamlReadTest, RefusesBytesThatAreNotUtf8OrControlCharacters) {
  EXPECT_EQ(Read("kind: Cluster\xc3"
                 "Config\n",
                 {.source = "k.yaml"})
                .status()
                .ToString(),
            "k.yaml:1:14: invalid UTF-8 byte \\xc3");
  EXPECT_EQ(Read("a: 1\nb\xff: 2\n").status().ToString(),
            "line 2, column 2: invalid UTF-8 byte \\xff");
  EXPECT_EQ(Read(std::string("a: x\0y\n", 7)).status().ToString(),
            "line 1, column 5: character U+0000 is not allowed in YAML");
  EXPECT_EQ(Read("a: \x1b[31mred\n").status().ToString(),
            "line 1, column 4: character U+001B is not allowed in YAML");
  EXPECT_EQ(Read("# \xed\xa0\x80 a surrogate\n").status().ToString(),
            "line 1, column 3: invalid UTF-8 byte \\xed");
  // Escapes in double quotes may name any character; one that UTF-8 cannot hold is refused.
  EXPECT_EQ(*Read("a: \"\\e[31m\\u00e9\"\n"), json({{"a", "\x1b[31m\xc3\xa9"}}));
  // A UTF-8 byte order mark, tabs, carriage returns and non-ASCII letters are fine.
  EXPECT_EQ(*Read("\xef\xbb\xbf"
                  "a:\t\"\xc3\xa9\"\r\n"),
            json({{"a", "\xc3\xa9"}}));
}

// \N and \_ name U+0085 and U+00A0, as \x85 and \u00A0 do (yaml-cpp alone gives the lone
// bytes 0x85 and 0xA0, which were then refused as not UTF-8); an escape \xC2 before them stays
// the character it names.
TEST(YamlReadTest, NextLineAndNoBreakSpaceEscapesAreTheirCharacters) {
  EXPECT_EQ(*Read("a: \"x\\Ny\\_z\"\n\"\\N\": b\n"),
            json({{"a", "x\u0085y\u00a0z"}, {"\u0085", "b"}}));
  EXPECT_EQ(*Read("a: \"\\x85\\u00A0\\xC2\\N\"\n"), json({{"a", "\u0085\u00a0\u00c2\u0085"}}));
}

TEST(YamlReadTest, SaysWhenATabIndents) {
  EXPECT_EQ(Read("a:\n\tb: 1\n").status().ToString(),
            "line 2, column 3: illegal map value (YAML indents with spaces, not tabs)");
}

TEST(YamlReadTest, EscapesTheSourceAndMessage) {
  EXPECT_EQ(Read("a: [\n", {.source = "x\ny.yaml"}).status().ToString(),
            "x\\ny.yaml:2:1: end of sequence flow not found");
}

}  // namespace
}  // namespace kkadm::util::yaml
