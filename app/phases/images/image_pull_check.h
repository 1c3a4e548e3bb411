// kubeadm's "ImagePull" pre-flight check and the lines around it: init and control-plane join
// pull the control-plane images before changing the node, so a registry problem shows early.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/phases/images/pull.h"
#include "app/phases/preflight/check.h"
#include "app/util/events.h"
#include "app/util/host.h"
#include "app/util/printer.h"

namespace kkadm::phases::images {

struct ImagePullCheckInput {
  std::string cri_socket;           // nodeRegistration.criSocket
  std::vector<std::string> images;  // config::ControlPlaneImages
  std::string pull_policy;          // nodeRegistration.imagePullPolicy
  std::string sandbox_image;        // config::PauseImage: the runtime's should be the same
  RetryPolicy retry = {};
  util::Events events = {};  // the check's result and each retry, as events
};

// What init (its own configuration) and a control-plane join (its node registration, the
// cluster's ClusterConfiguration) pull: kubeadm's control-plane images through the node's socket
// under its imagePullPolicy; the checks' and retries' events go to `events`.
ImagePullCheckInput ImagePullInputFor(const config::NodeRegistration& node,
                                      const config::ClusterConfiguration& cluster,
                                      util::Events events);

// "ImagePull": pulls the images through the runtime at `cri_socket` (under the node root) as
// PullForPreflight does, after kubeadm's warning when the runtime's sandbox image is not
// `sandbox_image` (WarnOnSandboxImageMismatch; not with the policy Never, as kubeadm). An error
// for each image that could not be pulled; ignorable with --ignore-preflight-errors=ImagePull.
std::unique_ptr<preflight::Check> NewImagePullCheck(ImagePullCheckInput input);

// kubeadm's RunPullImagesCheck with its three lines before it:
//   [preflight] Pulling images required for setting up a Kubernetes cluster
//   [preflight] This might take a minute or two, depending on the speed of your internet connection
//   [preflight] You can also perform this action beforehand using 'kubeadm config images pull'
// In a dry run only "[preflight] Would pull the required images (like 'kubeadm config images
// pull')" and nothing is pulled.
Status RunPullImagesCheck(const util::Host& host, const ImagePullCheckInput& input, bool dry_run,
                          const std::set<std::string>& ignored, util::Printer& out);

}  // namespace kkadm::phases::images
