// The ImagePull pre-flight check (image_pull_check.h).
#include "app/phases/images/image_pull_check.h"

#include "app/config/images.h"
#include "app/phases/cri/cri_socket.h"
#include "app/phases/images/sandbox_image.h"
#include "app/phases/preflight/run_checks.h"

namespace kkadm::phases::images {
namespace {

class ImagePullCheck final : public preflight::Check {
 public:
  explicit ImagePullCheck(ImagePullCheckInput input) : input_(std::move(input)) {}
  std::string Name() const override { return "ImagePull"; }
  preflight::CheckResult Run(const util::Host& host) const override {
    preflight::CheckResult result;
    if (input_.pull_policy == "Never") return result;
    Result<std::unique_ptr<util::ContainerRuntime>> runtime =
        cri::ConnectCri(host, input_.cri_socket);
    if (!runtime) {
      result.errors.push_back(runtime.error().message());
      return result;
    }
    if (!input_.sandbox_image.empty())
      WarnOnSandboxImageMismatch(**runtime, input_.sandbox_image, input_.events);
    const PullContext ctx{**runtime, host.clock, input_.retry, input_.events};
    result.errors = PullForPreflight(ctx, input_.images, input_.pull_policy);
    return result;
  }

 private:
  ImagePullCheckInput input_;
};

}  // namespace

ImagePullCheckInput ImagePullInputFor(const config::NodeRegistration& node,
                                      const config::ClusterConfiguration& cluster,
                                      util::Events events) {
  ImagePullCheckInput input;
  input.cri_socket = node.cri_socket;
  input.images = config::ControlPlaneImages(cluster);
  input.pull_policy = node.image_pull_policy;
  input.sandbox_image = config::PauseImage(cluster);
  input.events = events;
  return input;
}

std::unique_ptr<preflight::Check> NewImagePullCheck(ImagePullCheckInput input) {
  return std::make_unique<ImagePullCheck>(std::move(input));
}

Status RunPullImagesCheck(const util::Host& host, const ImagePullCheckInput& input, bool dry_run,
                          const std::set<std::string>& ignored, util::Printer& out) {
  if (dry_run) {
    out.Line("preflight", "Would pull the required images (like 'kubeadm config images pull')");
    return Status();
  }
  out.Line("preflight", "Pulling images required for setting up a Kubernetes cluster");
  out.Line("preflight",
           "This might take a minute or two, depending on the speed of your internet connection");
  out.Line("preflight",
           "You can also perform this action beforehand using 'kubeadm config images pull'");
  preflight::CheckList checks;
  checks.push_back(NewImagePullCheck(input));
  return preflight::RunChecks(checks, host, ignored, out, input.events);
}

}  // namespace kkadm::phases::images
