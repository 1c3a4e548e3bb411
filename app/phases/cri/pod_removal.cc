// Removing every pod sandbox and container from the runtime (kubeadm's removeContainers).
#include "app/phases/cri/pod_removal.h"

#include <fmt/format.h>

#include <set>

namespace kkadm::phases::cri {
namespace {

std::string Describe(const util::PodSandbox& pod) {
  if (pod.name.empty()) return "pod sandbox " + pod.id;
  return fmt::format("pod sandbox {} ({}/{})", pod.id, pod.namespace_name, pod.name);
}

// The sandbox's containers stopped and removed, then the sandbox: the first error, or OK.
Status RemoveOnce(util::ContainerRuntime& cri, const std::string& id,
                  const PodRemovalOptions& options) {
  Result<std::vector<util::Container>> containers = cri.ListContainers(id);
  if (!containers) return containers.error().Wrap("failed to list the containers of pod " + id);
  for (const util::Container& c : *containers) {
    if (c.state == util::ContainerState::kRunning) {
      KKADM_RETURN_IF_ERROR(cri.StopContainer(c.id, options.stop_grace)
                                .Wrap("failed to stop running container " + c.id));
    }
    KKADM_RETURN_IF_ERROR(cri.RemoveContainer(c.id).Wrap("failed to remove container " + c.id));
  }
  KKADM_RETURN_IF_ERROR(cri.StopPodSandbox(id).Wrap("failed to stop running pod " + id));
  return cri.RemovePodSandbox(id).Wrap("failed to remove pod " + id);
}

Status RemoveWithRetries(util::ContainerRuntime& cri, util::Clock& clock, const std::string& id,
                         const PodRemovalOptions& options) {
  Status last;
  for (int attempt = 1; attempt <= options.attempts; ++attempt) {
    last = RemoveOnce(cri, id, options);
    if (last.ok()) return last;
    if (attempt < options.attempts) clock.Sleep(options.retry_pause);
  }
  return last;
}

// What is still listed of `removed` sandboxes and their containers.
std::vector<NotRemoved> StillThere(util::ContainerRuntime& cri,
                                   const std::vector<util::PodSandbox>& removed,
                                   const std::vector<std::string>& errors) {
  std::vector<NotRemoved> left;
  std::set<std::string> ids;
  for (const auto& pod : removed) ids.insert(pod.id);
  Result<std::vector<util::PodSandbox>> pods = cri.ListPodSandbox();
  Result<std::vector<util::Container>> containers = cri.ListContainers("");
  for (const Status& listing : {pods.status(), containers.status()}) {
    if (!listing.ok()) {
      left.push_back({cri.Endpoint(), "could not be listed again: " + listing.message()});
    }
  }
  if (pods) {
    for (std::size_t i = 0; i < pods->size(); ++i) {
      const util::PodSandbox& pod = (*pods)[i];
      if (!ids.count(pod.id)) continue;
      std::string why = "is still there";
      for (std::size_t j = 0; j < removed.size(); ++j) {
        if (removed[j].id == pod.id && !errors[j].empty()) why = errors[j];
      }
      left.push_back({Describe(pod), why});
    }
  }
  if (containers) {
    for (const util::Container& c : *containers) {
      if (ids.count(c.pod_sandbox_id)) {
        left.push_back({fmt::format("container {} ({})", c.id, c.name), "is still there"});
      }
    }
  }
  return left;
}

}  // namespace

std::vector<NotRemoved> RemoveKubernetesPods(util::ContainerRuntime& cri, util::Clock& clock,
                                             util::Printer& out, const PodRemovalOptions& options) {
  Result<std::vector<util::PodSandbox>> pods = cri.ListPodSandbox();
  if (!pods) {
    return {{cri.Endpoint(), "its pod sandboxes could not be listed: " + pods.error().message()}};
  }
  if (pods->empty()) {
    out.Line("reset", "No pod sandboxes to remove from " + cri.Endpoint());
    return {};
  }
  out.Line("reset", fmt::format("Removing {} pod sandboxes (and their containers) from {}",
                                pods->size(), cri.Endpoint()));
  std::vector<std::string> errors;
  for (const util::PodSandbox& pod : *pods) {
    Status removed = RemoveWithRetries(cri, clock, pod.id, options);
    errors.push_back(removed.ok() ? "" : removed.message());
  }
  if (!options.verify) return {};
  std::vector<NotRemoved> left = StillThere(cri, *pods, errors);
  if (left.empty()) out.Line("reset", fmt::format("Removed {} pod sandboxes", pods->size()));
  return left;
}

}  // namespace kkadm::phases::cri
