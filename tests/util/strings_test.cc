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

}  // namespace
}  // namespace kkadm::util
