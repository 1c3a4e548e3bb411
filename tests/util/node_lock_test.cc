// NodeLock: one holder at a time, released when the holder goes.
#include "app/util/node_lock.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>

#include "tests/fakes/temp_dir.h"

namespace kkadm::util {
namespace {

TEST(NodeLockTest, OneHolderAtATime) {
  kkadm::testing::TempDir root;
  std::optional<Result<NodeLock>> first(NodeLock::Acquire(root.path()));
  ASSERT_TRUE(first->has_value()) << first->error().message();
  Result<NodeLock> second = NodeLock::Acquire(root.path());
  ASSERT_FALSE(second.has_value());
  EXPECT_EQ(second.error().code(), StatusCode::kFailedPrecondition);
  EXPECT_THAT(second.error().message(),
              ::testing::HasSubstr("another kkadm command is changing this node"));
  first.reset();
  EXPECT_TRUE(NodeLock::Acquire(root.path()).has_value());
}

TEST(NodeLockTest, AMissingRootIsAnError) {
  EXPECT_FALSE(NodeLock::Acquire("/nonexistent-kkadm-root").has_value());
}

}  // namespace
}  // namespace kkadm::util
