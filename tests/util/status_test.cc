#include "app/util/status.h"

#include <gtest/gtest.h>

namespace kkadm {
namespace {

TEST(StatusTest, WrapAddsContextAndKeepsCode) {
  Status s = NotFound("no such file").Wrap("reading ca.crt");
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(), "reading ca.crt: no such file");
  EXPECT_TRUE(Status().Wrap("anything").ok());
}

TEST(StatusTest, FieldErrorKeepsItsPartsThroughWrap) {
  Status s =
      Status::Field({"kubeadm.yaml: ClusterConfiguration (document 1)", "networking.serviceSubnet",
                     "invalid value \"x\": must be a valid CIDR"});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "kubeadm.yaml: ClusterConfiguration (document 1): networking.serviceSubnet: invalid "
            "value \"x\": must be a valid CIDR");
  ASSERT_NE(s.field(), nullptr);
  EXPECT_EQ(s.field()->origin, "kubeadm.yaml: ClusterConfiguration (document 1)");
  EXPECT_EQ(s.field()->path, "networking.serviceSubnet");
  EXPECT_EQ(s.field()->problem, "invalid value \"x\": must be a valid CIDR");

  const Status copy = s;
  Status wrapped = copy.Wrap("init");
  EXPECT_EQ(wrapped.message(), "init: " + s.message());
  ASSERT_NE(wrapped.field(), nullptr);
  EXPECT_EQ(wrapped.field()->path, "networking.serviceSubnet");
  Status moved = std::move(s).Wrap("init");
  ASSERT_NE(moved.field(), nullptr);
  EXPECT_EQ(moved.field()->path, "networking.serviceSubnet");

  EXPECT_EQ(InvalidArgument("networking.serviceSubnet: bad").field(), nullptr);
  EXPECT_EQ(Status().field(), nullptr);
}

Result<int> Half(int n) {
  if (n % 2) return InvalidArgument("odd");
  return n / 2;
}

Status UseHalf(int n, int* out) {
  Result<int> r = Half(n);
  KKADM_RETURN_IF_ERROR(r.status());
  *out = *r;
  return Status();
}

TEST(ResultTest, ValueOrError) {
  int out = 0;
  EXPECT_TRUE(UseHalf(4, &out).ok());
  EXPECT_EQ(out, 2);
  Status s = UseHalf(3, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Half(3).value_or(-1), -1);
}

}  // namespace
}  // namespace kkadm
