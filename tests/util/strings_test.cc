// Small string helpers: joining, Go's %v of a []string, splitting at commas; suggestions for
// mistyped names.
#include "app/util/strings.h"

#include <gtest/gtest.h>

#include "app/util/suggestions.h"

namespace kkadm::util {
namespace {

TEST(StringsTest, JoinAsGo) {
  EXPECT_EQ(Join({}, ","), "");
  EXPECT_EQ(Join({"a"}, ","), "a");
  EXPECT_EQ(Join({"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(Join({"", "b"}, ","), ",b");  // strings.Join keeps empty items
}

// From cleanup_node_test.cc, where GoList lived.
TEST(StringsTest, GoListLikeGo) {
  EXPECT_EQ(GoList({}), "[]");
  EXPECT_EQ(GoList({"a"}), "[a]");
  EXPECT_EQ(GoList({"a", "b"}), "[a b]");
}

TEST(StringsTest, SplitCommaAsGo) {
  EXPECT_EQ(SplitComma(""), std::vector<std::string>{""});
  EXPECT_EQ(SplitComma("10.96.0.0/12"), std::vector<std::string>{"10.96.0.0/12"});
  EXPECT_EQ(SplitComma("a,b"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(SplitComma("a,,b,"), (std::vector<std::string>{"a", "", "b", ""}));
  EXPECT_EQ(SplitComma(" a , b"), (std::vector<std::string>{" a ", " b"}));
}

// cobra's SuggestionsFor: Levenshtein distance at most 2 without case, or a prefix.
TEST(SuggestionsTest, CobrasRule) {
  const std::vector<std::string> names = {"init", "join", "reset", "config", "token", "version"};
  EXPECT_EQ(SuggestionsFor("iint", names), std::vector<std::string>{"init"});
  EXPECT_EQ(SuggestionsFor("INIT", names), std::vector<std::string>{"init"});
  EXPECT_EQ(SuggestionsFor("tok", names), std::vector<std::string>{"token"});  // prefix, distance 2
  EXPECT_EQ(SuggestionsFor("ver", names), std::vector<std::string>{"version"});  // prefix only
  EXPECT_EQ(SuggestionsFor("rest", names), std::vector<std::string>{"reset"});
  EXPECT_EQ(SuggestionsFor("xyzzy", names), std::vector<std::string>{});
  EXPECT_EQ(SuggestionsFor("jion", names), std::vector<std::string>{"join"});  // a swap is 2
  EXPECT_EQ(SuggestionsFor("in", {"init", "join", "bin"}),
            (std::vector<std::string>{"init", "join", "bin"}));
}

TEST(SuggestionsTest, Wording) {
  EXPECT_EQ(DidYouMeanBlock({"init"}), "\n\nDid you mean this?\n\tinit\n");
  EXPECT_EQ(DidYouMeanBlock({}), "");
  EXPECT_EQ(DidYouMeanClause({"a"}), " (did you mean \"a\"?)");
  EXPECT_EQ(DidYouMeanClause({"a", "b", "c"}), " (did you mean \"a\", \"b\" or \"c\"?)");
  EXPECT_EQ(DidYouMeanHint("swp", {"swap", "mem"}), " (did you mean \"swap\"?)");
  EXPECT_EQ(DidYouMeanHint("zzz", {"swap"}), "");
}

}  // namespace
}  // namespace kkadm::util
