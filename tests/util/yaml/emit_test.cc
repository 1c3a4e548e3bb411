// util::yaml's emitter: go-yaml v2's layout and scalar styles, as kubeadm prints YAML. Expected
// texts were checked against sigs.k8s.io/yaml v1.4.0's output for the same values.
#include <gtest/gtest.h>

#include "app/util/yaml/yaml.h"

namespace kkadm::util::yaml {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

TEST(YamlEmitTest, SortedKeysAndUnindentedSequences) {
  json doc = {{"spec",
               {{"containers", json::array({{{"name", "a"}, {"command", {"x", "y"}}}})},
                {"hostNetwork", true}}},
              {"status", json::object()},
              {"apiVersion", "v1"}};
  EXPECT_EQ(Emit(doc),
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

TEST(YamlEmitTest, QuotesOnlyWhatYamlWouldMisread) {
  json doc = {{"a", "true"},    {"b", "10"},         {"c", ""},
              {"d", "x: y"},    {"e", "::1"},        {"f", "250m"},
              {"g", "--flag="}, {"h", "yes"},        {"i", "1.5"},
              {"j", "- x"},     {"k", "a #b"},       {"l", "*,bootstrap"},
              {"m", "it's:"},   {"n", "line\nnext"}, {"o", "/health?exclude=NOSPACE&x=true"},
              {"p", 5},         {"q", nullptr}};
  EXPECT_EQ(Emit(doc),
            "a: \"true\"\nb: \"10\"\nc: \"\"\nd: 'x: y'\ne: ::1\nf: 250m\ng: --flag=\n"
            "h: \"yes\"\ni: \"1.5\"\nj: '- x'\nk: 'a #b'\nl: '*,bootstrap'\nm: 'it''s:'\n"
            "\"n\": |-\n  line\n  next\no: /health?exclude=NOSPACE&x=true\np: 5\nq: null\n");
}

// ordered_json keeps its order (kkadm version -o yaml); the configuration emitter, which used
// yaml-cpp's quoting, wrote "*.example.com" in double quotes and y, ---, 0o17 unquoted.
TEST(YamlEmitTest, ConfigurationValuesAreQuotedAsKubeadmQuotesThem) {
  ordered_json doc = {{"certSANs", {"*.example.com", "y", "---", "0o17", "<<", "on", "10.0.0.1"}},
                      {"apiVersion", "kubeadm.k8s.io/v1beta4"}};
  EXPECT_EQ(Emit(doc),
            "certSANs:\n- '*.example.com'\n- \"y\"\n- '---'\n- \"0o17\"\n- <<\n- \"on\"\n"
            "- 10.0.0.1\napiVersion: kubeadm.k8s.io/v1beta4\n");
}

// The Kubernetes-object emitter left timestamps plain; the configuration emitter quoted whatever
// looked like one. go-yaml quotes exactly what Go's time.Parse takes with its layouts.
TEST(YamlEmitTest, TimestampsAreQuoted) {
  json doc = {{"t",
               {"2024-01-02", "2024-1-2", "2024-01-02T10:00:00Z", "2024-01-02 10:00:00",
                "2024-13-01", "2024-02-30", "2024-02-29", "2023-02-29", "1:30", "1e400"}}};
  EXPECT_EQ(Emit(doc),
            "t:\n- \"2024-01-02\"\n- \"2024-1-2\"\n- \"2024-01-02T10:00:00Z\"\n"
            "- \"2024-01-02 10:00:00\"\n- 2024-13-01\n- 2024-02-30\n- \"2024-02-29\"\n"
            "- 2023-02-29\n- \"1:30\"\n- 1e400\n");
}

// Multi-line strings are literal blocks, as go-yaml v2.4 writes them (the Kubernetes-object and
// configuration emitters double-quoted them; the cloud-init one wrote a literal block).
TEST(YamlEmitTest, MultiLineStringsAreLiteralBlocks) {
  json doc = {{"script", "set -u\necho hi\n"},
              {"keep", "a\n\n"},
              {"strip", "a\nb"},
              {"lead", "  two\nx"},
              {"blank", "\nx"},
              {"spacebreak", "a \nb"}};
  EXPECT_EQ(Emit(doc),
            "blank: |2-\n\n  x\nkeep: |+\n  a\n\nlead: |2-\n    two\n  x\n"
            "script: |\n  set -u\n  echo hi\nspacebreak: \"a \\nb\"\nstrip: |-\n  a\n  b\n");
  json nested = {{"runcmd", {{"sh", "-c", "set -u\nexit 0\n", "kkadm-join", "300"}}}};
  EXPECT_EQ(Emit(nested),
            "runcmd:\n- - sh\n  - -c\n  - |\n    set -u\n    exit 0\n  - kkadm-join\n"
            "  - \"300\"\n");
}

TEST(YamlEmitTest, LongAndMultiLineKeysAreComplexKeys) {
  json doc = {{"m", {{"line\nnext", 1}, {std::string(129, 'k'), {{"x", {1}}}}}}};
  EXPECT_EQ(Emit(doc), "m:\n  ? " + std::string(129, 'k') +
                           "\n  : x:\n    - 1\n  ? |-\n    line\n    next\n  : 1\n");
  EXPECT_EQ(Emit(json({{std::string(128, 'k'), 1}})), std::string(128, 'k') + ": 1\n");
}

TEST(YamlEmitTest, EscapesWhatCannotBePrinted) {
  json doc = {
      {"a", "bell\a"},   {"b", "del\x7f"},  {"c", "\xF0\x9F\x98\x80"},     {"d", "tab\there"},
      {"e", "\xC3\xA9"}, {"f", "\xC2\x85"}, {"g", std::string("nul\0", 4)}};
  EXPECT_EQ(Emit(doc),
            "a: \"bell\\a\"\nb: \"del\\x7F\"\nc: \"\\U0001F600\"\nd: \"tab\\there\"\n"
            "e: \xC3\xA9\nf: \"\\x85\"\ng: \"nul\\0\"\n");
}

// U+0085 (NEL) is written \x85, not \N, which yaml-cpp reads back as the lone byte 0x85 (found
// by the yaml_round_trip fuzz target; regression nel_in_a_double_quoted_value.yaml).
TEST(YamlEmitTest, NextLineIsWrittenSoThatItReadsBack) {
  const json doc = {{"a", "x\u0085y"}, {"x\u0085y", "b"}};
  const std::string text = Emit(doc);
  EXPECT_EQ(text, "a: \"x\\x85y\"\n? \"x\\x85y\"\n: b\n");  // a key holding a break: complex
  auto back = Read(text);
  ASSERT_TRUE(back.has_value()) << back.status().ToString();
  EXPECT_EQ(*back, doc);
  EXPECT_EQ(Emit(*back), text);
}

TEST(YamlEmitTest, OneLineScalars) {
  EXPECT_EQ(StringScalar("kubernetes-admin@kubernetes"), "kubernetes-admin@kubernetes");
  EXPECT_EQ(StringScalar("true"), "\"true\"");
  EXPECT_EQ(StringScalar("a: b"), "'a: b'");
  EXPECT_EQ(StringScalar("a\nb"), "\"a\\nb\"");
  EXPECT_EQ(Emit(json("x")), "x\n");
  EXPECT_EQ(Emit(json::array()), "[]\n");
}

// Whatever the string, the reader gives back what the emitter wrote.
TEST(YamlEmitTest, EveryStringReadsBackAsWritten) {
  const std::string alphabet = "a0-:#' \"\n.?,[]{}&*!|>%@`~+_eE\\\t\r";
  std::vector<std::string> strings = {"",
                                      "2024-01-02",
                                      "1_000",
                                      "0x1F",
                                      ".inf",
                                      "<<",
                                      "\xC3\xA9",
                                      "\xE2\x80\xA8",
                                      std::string(200, 'x') + " y",
                                      "\xC2\x85",
                                      "x\xC2\x85\xC2\xA0"};
  for (char c : alphabet) {
    strings.emplace_back(1, c);
    for (char d : alphabet) strings.push_back(std::string(1, c) + d);
  }
  for (const std::string& s : strings) {
    const json doc = {{"k", s}, {"l", {s, {{"x", s}}}}, {"m", {{s, 1}}}};
    auto back = Read(Emit(doc));
    ASSERT_TRUE(back.has_value()) << json(s).dump() << ": " << back.status().ToString();
    EXPECT_EQ(*back, doc) << json(s).dump() << "\n" << Emit(doc);
  }
}

}  // namespace
}  // namespace kkadm::util::yaml
