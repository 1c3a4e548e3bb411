// Suggestions for mistyped names: cobra's rule and kkadm's wording of it.
#include "app/util/suggestions.h"

#include <gtest/gtest.h>

namespace kkadm::util {
namespace {

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
