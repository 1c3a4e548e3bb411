// The release-label source of kkadm's commands: the mirror variable and SSL_CERT_FILE. (The HTTPS
// lookups themselves run in tests/e2e/version_label_test.sh against a local server.)
#include "cmd/release_versions.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/fakes/fake_machine.h"

namespace kkadm::cmd {
namespace {

testing::FakeMachine Env(std::map<std::string, std::string> vars) {
  testing::FakeMachine machine;
  machine.env = std::move(vars);
  return machine;
}

TEST(ReleaseVersionsTest, KubeadmsBucketsByDefault) {
  config::ReleaseVersionSource source = ReleaseVersionsFromEnvironment(Env({}));
  EXPECT_EQ(source.release_bucket, "https://dl.k8s.io");
  EXPECT_EQ(source.ci_bucket, "https://storage.googleapis.com/k8s-release-dev");
  EXPECT_TRUE(static_cast<bool>(source.fetch));
  source = ReleaseVersionsFromEnvironment(Env({{"KKADM_RELEASE_URL", ""}}));
  EXPECT_EQ(source.release_bucket, "https://dl.k8s.io");
}

TEST(ReleaseVersionsTest, MirrorReplacesBothBuckets) {
  config::ReleaseVersionSource source =
      ReleaseVersionsFromEnvironment(Env({{"KKADM_RELEASE_URL", "https://127.0.0.1:8443/k8s//"}}));
  EXPECT_EQ(source.release_bucket, "https://127.0.0.1:8443/k8s");
  EXPECT_EQ(source.ci_bucket, "https://127.0.0.1:8443/k8s");
}

// Checked before any connection is made: the lookup fails, so the label falls back.
TEST(ReleaseVersionsTest, UnreadableCertFileFailsTheLookup) {
  config::ReleaseVersionSource source = ReleaseVersionsFromEnvironment(Env(
      {{"KKADM_RELEASE_URL", "https://127.0.0.1:9"}, {"SSL_CERT_FILE", "/nonexistent/ca.pem"}}));
  auto body = source.fetch("https://127.0.0.1:9/release/stable-1.txt", std::chrono::seconds(1));
  ASSERT_FALSE(body.has_value());
  EXPECT_EQ(body.error().message(),
            "SSL_CERT_FILE /nonexistent/ca.pem: cannot read trusted certificates");
}

}  // namespace
}  // namespace kkadm::cmd
