#include "app/phases/images/image_pull_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "app/util/file_system_real.h"
#include "tests/fakes/fake_clock.h"
#include "tests/fakes/fake_container_runtime.h"
#include "tests/fakes/fake_host.h"
#include "tests/fakes/fake_init_system.h"
#include "tests/fakes/fake_machine.h"
#include "tests/fakes/log_capture.h"
#include "tests/fakes/temp_dir.h"

namespace kkadm::phases::images {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

// containerd 1.6's words for a tag the registry does not have.
constexpr const char* kImageNotFound =
    "rpc error: code = NotFound desc = failed to pull and unpack image \"r/x:1\": failed to "
    "resolve reference \"r/x:1\": r/x:1: not found";

class ImagePullCheckTest : public ::testing::Test {
 protected:
  ImagePullCheckInput Input() {
    ImagePullCheckInput input;
    input.cri_socket = "unix:///run/containerd/containerd.sock";
    input.images = {"r/kube-apiserver:v1.32.0", "r/pause:3.10"};
    input.pull_policy = "IfNotPresent";
    return input;
  }
  Status Run(const ImagePullCheckInput& input, bool dry_run, std::set<std::string> ignored = {}) {
    return RunPullImagesCheck(host_, input, dry_run, ignored, printer_);
  }

  testing::TempDir root_;
  util::RealFileSystem fs_{root_.path()};
  testing::FakeInitSystem init_;
  testing::FakeMachine machine_;
  testing::FakeClock clock_;
  testing::FakeHostSeams seams_;
  util::Host host_{seams_.Over(fs_, init_, clock_, machine_)};
  testing::FakeContainerRuntime& runtime_ = seams_.network.runtime;
  std::ostringstream output_;
  util::Printer printer_{output_};
};

TEST_F(ImagePullCheckTest, PullsThroughTheSocketUnderTheNodeRootWithKubeadmsLines) {
  ASSERT_TRUE(Run(Input(), false).ok());
  EXPECT_EQ(output_.str(),
            "[preflight] Pulling images required for setting up a Kubernetes cluster\n"
            "[preflight] This might take a minute or two, depending on the speed of your internet "
            "connection\n"
            "[preflight] You can also perform this action beforehand using 'kubeadm config images "
            "pull'\n");
  ASSERT_EQ(seams_.network.cri_asked.size(), 1u);
  EXPECT_EQ(seams_.network.cri_asked[0].socket_path,
            fs_.HostPath("/run/containerd/containerd.sock"));
  EXPECT_EQ(runtime_.images.size(), 2u);
}

TEST_F(ImagePullCheckTest, DryRunPullsNothing) {
  ASSERT_TRUE(Run(Input(), true).ok());
  EXPECT_EQ(output_.str(),
            "[preflight] Would pull the required images (like 'kubeadm config images pull')\n");
  EXPECT_THAT(runtime_.calls, IsEmpty());
}

TEST_F(ImagePullCheckTest, AFailedPullIsTheImagePullErrorUnlessIgnored) {
  runtime_.errors["PullImage"] = {Status(StatusCode::kInternal, kImageNotFound)};
  Status s = Run(Input(), false);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(output_.str(), HasSubstr("\t[ERROR ImagePull]: failed to pull image "
                                       "r/kube-apiserver:v1.32.0: rpc error"));
  output_.str("");
  runtime_.images.clear();
  runtime_.errors["PullImage"] = {Status(StatusCode::kInternal, kImageNotFound)};
  EXPECT_TRUE(Run(Input(), false, {"imagepull"}).ok());
  EXPECT_THAT(output_.str(), HasSubstr("\t[WARNING ImagePull]: failed to pull image "
                                       "r/kube-apiserver:v1.32.0"));
}

constexpr const char* kSandboxWarning =
    "detected that the sandbox image \"registry.k8s.io/pause:3.8\" of the container runtime is "
    "inconsistent with that used by kubeadm. It is recommended to use \"r/pause:3.10\" as the "
    "CRI sandbox image.";

TEST_F(ImagePullCheckTest, WarnsWhenTheRuntimesSandboxImageIsNotThePauseImage) {
  testing::LogCapture log;
  ImagePullCheckInput input = Input();
  input.sandbox_image = "r/pause:3.10";
  runtime_.info["config"] = R"({"sandboxImage":"registry.k8s.io/pause:3.8","other":1})";
  ASSERT_TRUE(Run(input, false).ok());
  EXPECT_THAT(log.text(), HasSubstr(std::string("W ") + kSandboxWarning));
  EXPECT_EQ(runtime_.images.size(), 2u);  // a warning only: the images are pulled

  testing::LogCapture same;
  runtime_.info["config"] = R"({"sandboxImage":"r/pause:3.10"})";
  ASSERT_TRUE(Run(input, false).ok());
  EXPECT_THAT(same.text(), Not(HasSubstr("sandbox image")));
}

TEST_F(ImagePullCheckTest, NoSandboxWarningWhenTheRuntimeSaysNothingOrThePolicyIsNever) {
  testing::LogCapture log;
  ImagePullCheckInput input = Input();
  input.sandbox_image = "r/pause:3.10";
  ASSERT_TRUE(Run(input, false).ok());  // no "config" in the info (CRI-O)
  runtime_.info["config"] = R"({"containerd":{}})";
  ASSERT_TRUE(Run(input, false).ok());
  runtime_.info["config"] = "not json";
  ASSERT_TRUE(Run(input, false).ok());
  runtime_.errors["RuntimeInfo"] = {Unavailable("rpc error: code = Unavailable desc = x")};
  ASSERT_TRUE(Run(input, false).ok());
  runtime_.info["config"] = R"({"sandboxImage":"registry.k8s.io/pause:3.8"})";
  input.pull_policy = "Never";
  ASSERT_TRUE(Run(input, false).ok());
  EXPECT_THAT(log.text(), Not(HasSubstr("sandbox image")));
}

TEST(ImagePullInputTest, TheNodesSocketAndPolicyTheClustersImages) {
  config::NodeRegistration node;
  node.cri_socket = "unix:///run/crio/crio.sock";
  node.image_pull_policy = "Always";
  config::ClusterConfiguration cluster;
  cluster.kubernetes_version = "v1.32.0";
  cluster.image_repository = "10.0.0.1:5000/k8s";
  cluster.etcd.local.emplace();
  ImagePullCheckInput input = ImagePullInputFor(node, cluster, {});
  EXPECT_EQ(input.cri_socket, "unix:///run/crio/crio.sock");
  EXPECT_EQ(input.pull_policy, "Always");
  ASSERT_EQ(input.images.size(), 7u);
  EXPECT_EQ(input.images[0], "10.0.0.1:5000/k8s/kube-apiserver:v1.32.0");
  EXPECT_EQ(input.images[5], "10.0.0.1:5000/k8s/pause:3.10");
  EXPECT_EQ(input.sandbox_image, "10.0.0.1:5000/k8s/pause:3.10");
}

}  // namespace
}  // namespace kkadm::phases::images
