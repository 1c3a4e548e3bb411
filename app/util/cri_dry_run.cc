// The dry run's container runtime: changes are said, not made.
#include "app/util/cri_dry_run.h"

#include <fmt/format.h>

namespace kkadm::util {

Result<std::string> DryRunContainerRuntime::PullImage(const std::string& image) {
  printer_.Line("dryrun", "Would pull image " + image);
  return image;
}

Status DryRunContainerRuntime::StopPodSandbox(const std::string& id) {
  printer_.Line("dryrun", "Would stop pod sandbox " + id);
  return Status();
}

Status DryRunContainerRuntime::RemovePodSandbox(const std::string& id) {
  printer_.Line("dryrun", "Would remove pod sandbox " + id);
  return Status();
}

Status DryRunContainerRuntime::StopContainer(const std::string& id, std::chrono::seconds timeout) {
  printer_.Line("dryrun",
                fmt::format("Would stop container {} (grace period {}s)", id, timeout.count()));
  return Status();
}

Status DryRunContainerRuntime::RemoveContainer(const std::string& id) {
  printer_.Line("dryrun", "Would remove container " + id);
  return Status();
}

}  // namespace kkadm::util
