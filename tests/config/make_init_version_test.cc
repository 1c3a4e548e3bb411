// MakeInitConfiguration looks the kubernetesVersion label of the flags, the file or kubeadm's
// default (stable-1) up before defaulting and validation, as kubeadm's dynamic defaults do.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "app/config/make_config.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/fake_release_versions.h"

namespace kkadm::config {
namespace {

using kkadm::testing::FakeReleaseFiles;
using ::testing::ElementsAre;

using kkadm::testing::kRelease;

class MakeInitVersionTest : public ::testing::Test {
 protected:
  MakeInitVersionTest() {
    files_->files[kRelease + "stable-1.txt"] = "v1.32.5";
    files_->files[kRelease + "stable-1.31.txt"] = "v1.31.4";
    files_->files[kRelease + "latest.txt"] = "v1.32.6";
  }
  Result<LoadedInit> Make(const std::optional<ConfigSource>& file, const InitFlags& flags) {
    return MakeInitConfiguration(file, flags, machine_,
                                 kkadm::testing::FakeReleaseVersions(files_));
  }
  std::shared_ptr<FakeReleaseFiles> files_ = std::make_shared<FakeReleaseFiles>();
  kkadm::testing::FakeMachine machine_;
};

TEST_F(MakeInitVersionTest, DefaultIsStableOne) {
  auto loaded = Make(std::nullopt, InitFlags{});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message();
  EXPECT_EQ(loaded->cfg.cluster.kubernetes_version, "v1.32.5");
  EXPECT_THAT(files_->fetched, ElementsAre(kRelease + "stable-1.txt"));
}

TEST_F(MakeInitVersionTest, FlagLabelKeepsItsMinor) {
  InitFlags flags;
  flags.kubernetes_version = "stable-1.31";
  auto loaded = Make(std::nullopt, flags);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message();
  EXPECT_EQ(loaded->cfg.cluster.kubernetes_version, "v1.31.4");
}

TEST_F(MakeInitVersionTest, FileLabel) {
  auto loaded = Make(ConfigSource{"k.yaml",
                                  "apiVersion: kubeadm.k8s.io/v1beta4\n"
                                  "kind: ClusterConfiguration\nkubernetesVersion: latest\n"},
                     InitFlags{});
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message();
  EXPECT_EQ(loaded->cfg.cluster.kubernetes_version, "v1.32.6");
}

TEST_F(MakeInitVersionTest, VersionsAreNotLookedUp) {
  InitFlags flags;
  flags.kubernetes_version = "1.31.2";
  auto loaded = Make(std::nullopt, flags);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message();
  EXPECT_EQ(loaded->cfg.cluster.kubernetes_version, "v1.31.2");
  EXPECT_TRUE(files_->fetched.empty());
}

TEST_F(MakeInitVersionTest, FileWithoutVersionFailsTheCommand) {
  files_->files[kRelease + "stable-1.txt"] = "not a version";
  auto loaded = Make(std::nullopt, InitFlags{});
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().message(),
            "remote version error: could not parse \"not a version\" as version");
}

}  // namespace
}  // namespace kkadm::config
