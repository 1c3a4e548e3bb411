#include "app/phases/preflight/checks_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/phases/preflight/preflight_test_env.h"

namespace kkadm::phases::preflight {
namespace {

using kkadm::testing::PreflightEnv;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(PreflightFileChecksTest, FileAvailable) {
  PreflightEnv env;
  auto check = NewFileAvailableCheck("/etc/kubernetes/manifests/kube-apiserver.yaml");
  EXPECT_EQ(check->Name(), "FileAvailable--etc-kubernetes-manifests-kube-apiserver.yaml");
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  ASSERT_TRUE(env.fs.WriteFile("/etc/kubernetes/manifests/kube-apiserver.yaml", "x", 0600).ok());
  EXPECT_THAT(env.Run(*check).errors,
              ElementsAre("/etc/kubernetes/manifests/kube-apiserver.yaml already exists"));
}

TEST(PreflightFileChecksTest, DirAvailableAbsentOrEmptyPasses) {
  PreflightEnv env;
  auto check = NewDirAvailableCheck("/var/lib/etcd");
  EXPECT_EQ(check->Name(), "DirAvailable--var-lib-etcd");
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  ASSERT_TRUE(env.fs.MakeDirs("/var/lib/etcd", 0700).ok());
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
  ASSERT_TRUE(env.fs.WriteFile("/var/lib/etcd/member/snap/db", "x", 0600).ok());
  EXPECT_THAT(env.Run(*check).errors, ElementsAre("/var/lib/etcd is not empty"));
}

TEST(PreflightFileChecksTest, DirAvailableOnAFileCannotCheck) {
  PreflightEnv env;
  ASSERT_TRUE(env.fs.WriteFile("/data/etcd", "x", 0600).ok());
  auto result = env.Run(*NewDirAvailableCheck("/data/etcd"));
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_THAT(result.errors[0], ::testing::StartsWith("unable to check if /data/etcd is empty: "));
}

TEST(PreflightFileChecksTest, FileExistingWithLabel) {
  PreflightEnv env;
  auto check = NewFileExistingCheck("/etc/etcd/ca.crt", "ExternalEtcdClientCertificates");
  EXPECT_EQ(check->Name(), "ExternalEtcdClientCertificates");
  EXPECT_EQ(NewFileExistingCheck("/etc/etcd/ca.crt")->Name(), "FileExisting--etc-etcd-ca.crt");
  EXPECT_THAT(env.Run(*check).errors, ElementsAre("/etc/etcd/ca.crt doesn't exist"));
  ASSERT_TRUE(env.fs.WriteFile("/etc/etcd/ca.crt", "x", 0644).ok());
  EXPECT_THAT(env.Run(*check).errors, IsEmpty());
}

}  // namespace
}  // namespace kkadm::phases::preflight
