// DryRunContainerRuntime: what --dry-run hands out for the container runtime. As kubeadm's dry
// run still runs its preflight checks against the real runtime, reads (Version, Status, the
// cgroup driver, ImageStatus, the lists) go to the runtime; every change (pull, stop, remove) is
// printed ("[dryrun] Would pull image registry.k8s.io/pause:3.10") and succeeds without a call.
#pragma once

#include <memory>

#include "app/util/container_runtime.h"
#include "app/util/printer.h"

namespace kkadm::util {

class DryRunContainerRuntime final : public ContainerRuntime {
 public:
  DryRunContainerRuntime(std::unique_ptr<ContainerRuntime> real, Printer& printer)
      : real_(std::move(real)), printer_(printer) {}

  const std::string& Endpoint() const override { return real_->Endpoint(); }
  Result<CriVersion> Version() override { return real_->Version(); }
  Result<CriRuntimeStatus> RuntimeStatus() override { return real_->RuntimeStatus(); }
  Result<std::map<std::string, std::string>> RuntimeInfo() override { return real_->RuntimeInfo(); }
  Result<std::optional<std::string>> CgroupDriver() override { return real_->CgroupDriver(); }
  Result<std::optional<std::string>> ImageStatus(const std::string& image) override {
    return real_->ImageStatus(image);
  }
  Result<std::string> PullImage(const std::string& image) override;
  Result<std::vector<PodSandbox>> ListPodSandbox() override { return real_->ListPodSandbox(); }
  Status StopPodSandbox(const std::string& id) override;
  Status RemovePodSandbox(const std::string& id) override;
  Result<std::vector<Container>> ListContainers(const std::string& sandbox) override {
    return real_->ListContainers(sandbox);
  }
  Status StopContainer(const std::string& id, std::chrono::seconds timeout) override;
  Status RemoveContainer(const std::string& id) override;

 private:
  std::unique_ptr<ContainerRuntime> real_;
  Printer& printer_;
};

}  // namespace kkadm::util
