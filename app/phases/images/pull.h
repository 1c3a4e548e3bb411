// Pulling the control-plane images through the container runtime (CRI), for `kkadm config images
// pull` and init's and join's pre-flight: kubeadm's pulls, plus retries with a growing pause on
// transient failures, each reported, and no pull of an image the runtime already holds.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "app/util/clock.h"
#include "app/util/container_runtime.h"
#include "app/util/events.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases::images {

// kubeadm tries a pull up to 5 times (constants.PullImageRetry), at once; kkadm pauses between
// tries, doubling the pause up to `max_pause`, so a registry that is down for a moment recovers.
struct RetryPolicy {
  int attempts = 5;
  std::chrono::milliseconds first_pause{1000};
  std::chrono::milliseconds max_pause{8000};
};

// True for a failure another try may not meet: the runtime unreachable or busy (gRPC UNAVAILABLE,
// DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED) or the registry failing on its side, which
// containerd reports as UNKNOWN with the registry's words: an HTTP 5xx status, a connection reset
// or refused, an unexpected EOF, a timeout. A missing image or a refused login is not transient.
bool IsTransientPullError(const Status& error);

// What pulling needs: the runtime, the clock it pauses on, the retry policy, and where each retry
// is told (a warning in the log always; a Retry event with what "image-pull" when events are on).
struct PullContext {
  util::ContainerRuntime& runtime;
  util::Clock& clock;
  RetryPolicy retry = {};
  util::Events events = {};
};

// Pulls `image`, trying again after a pause while the failure is transient and tries remain.
// The error is the last try's, "(after N attempts)" added when there were several. A runtime
// that does not answer (the pull UNAVAILABLE and a Version call failing too) is not tried again:
// "container runtime is not running: <error>" at once, so a dead runtime costs no pauses.
Status PullWithRetries(const PullContext& ctx, const std::string& image);

// `kkadm config images pull`: each image in order; one the runtime holds (ImageStatus) is not
// pulled again ("[config/images] Image <image> already present on machine"), the others are
// pulled ("[config/images] Pulled <image>", kubeadm's line), each an ImagePull event (result
// "present" or "pulled"). The first failure stops the run: kubeadm's `failed to pull image
// "<image>": <error>`.
Status PullImages(const PullContext& ctx, const std::vector<std::string>& images,
                  util::Printer& out);

// The errors of kubeadm's ImagePull pre-flight check for `images` under `pull_policy` (Always,
// IfNotPresent, Never): Never pulls nothing; IfNotPresent pulls what ImageStatus does not find
// ("failed to check if image <image> exists: <error>" when it cannot tell, then pulls); Always
// pulls each. A failed pull is "failed to pull image <image>: <error>"; the other images are
// still pulled, as kubeadm does.
std::vector<std::string> PullForPreflight(const PullContext& ctx,
                                          const std::vector<std::string>& images,
                                          const std::string& pull_policy);

}  // namespace kkadm::phases::images
