// FakeContainerRuntime: an in-memory CRI runtime for unit tests. It holds images, pod sandboxes
// and containers as the real one would, records every call ("StopPodSandbox p1"), and answers a
// call with an error a test queued for it (`errors["PullImage"]`, first queued first).
// ForwardingContainerRuntime hands a FakeContainerRuntime that the test keeps out as a unique_ptr.
#pragma once

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/util/container_runtime.h"

namespace kkadm::testing {

class FakeContainerRuntime final : public util::ContainerRuntime {
 public:
  std::string endpoint = "unix:///var/run/containerd/containerd.sock";
  util::CriVersion version{"0.1.0", "containerd", "1.6.20~ds1", "v1"};
  util::CriRuntimeStatus status{{{"RuntimeReady", true, "", ""}, {"NetworkReady", true, "", ""}}};
  std::optional<std::string> cgroup_driver;   // nullopt: as containerd 1.6 (not reported)
  std::map<std::string, std::string> info;    // Status(verbose)'s info
  std::map<std::string, std::string> images;  // reference -> id
  std::vector<util::PodSandbox> sandboxes;
  std::vector<util::Container> containers;
  // Sandboxes and containers whose removal "succeeds" but leaves them listed.
  std::vector<std::string> stuck;
  std::map<std::string, std::deque<Status>> errors;  // method name -> errors to answer, in order
  std::vector<std::string> calls;

  const std::string& Endpoint() const override { return endpoint; }
  Result<util::CriVersion> Version() override {
    if (Status s = Call("Version", ""); !s.ok()) return s;
    return version;
  }
  Result<util::CriRuntimeStatus> RuntimeStatus() override {
    if (Status s = Call("RuntimeStatus", ""); !s.ok()) return s;
    return status;
  }
  Result<std::map<std::string, std::string>> RuntimeInfo() override {
    if (Status s = Call("RuntimeInfo", ""); !s.ok()) return s;
    return info;
  }
  Result<std::optional<std::string>> CgroupDriver() override {
    if (Status s = Call("CgroupDriver", ""); !s.ok()) return s;
    return cgroup_driver;
  }
  Result<std::optional<std::string>> ImageStatus(const std::string& image) override {
    if (Status s = Call("ImageStatus", image); !s.ok()) return s;
    auto it = images.find(image);
    if (it == images.end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  }
  Result<std::string> PullImage(const std::string& image) override {
    if (Status s = Call("PullImage", image); !s.ok()) return s;
    images[image] = "sha256:" + image;
    return image;
  }
  Result<std::vector<util::PodSandbox>> ListPodSandbox() override {
    if (Status s = Call("ListPodSandbox", ""); !s.ok()) return s;
    return sandboxes;
  }
  Status StopPodSandbox(const std::string& id) override {
    KKADM_RETURN_IF_ERROR(Call("StopPodSandbox", id));
    for (auto& s : sandboxes) {
      if (s.id == id) s.state = util::SandboxState::kNotReady;
    }
    for (auto& c : containers) {
      if (c.pod_sandbox_id == id) c.state = util::ContainerState::kExited;
    }
    return Status();
  }
  Status RemovePodSandbox(const std::string& id) override {
    KKADM_RETURN_IF_ERROR(Call("RemovePodSandbox", id));
    if (IsStuck(id)) return Status();
    std::erase_if(sandboxes, [&](const util::PodSandbox& s) { return s.id == id; });
    std::erase_if(containers, [&](const util::Container& c) { return c.pod_sandbox_id == id; });
    return Status();
  }
  Result<std::vector<util::Container>> ListContainers(const std::string& sandbox) override {
    if (Status s = Call("ListContainers", sandbox); !s.ok()) return s;
    std::vector<util::Container> out;
    for (const auto& c : containers) {
      if (sandbox.empty() || c.pod_sandbox_id == sandbox) out.push_back(c);
    }
    return out;
  }
  Status StopContainer(const std::string& id, std::chrono::seconds timeout) override {
    KKADM_RETURN_IF_ERROR(Call("StopContainer", id + " " + std::to_string(timeout.count())));
    for (auto& c : containers) {
      if (c.id == id) c.state = util::ContainerState::kExited;
    }
    return Status();
  }
  Status RemoveContainer(const std::string& id) override {
    KKADM_RETURN_IF_ERROR(Call("RemoveContainer", id));
    if (IsStuck(id)) return Status();
    std::erase_if(containers, [&](const util::Container& c) { return c.id == id; });
    return Status();
  }

 private:
  Status Call(const std::string& method, const std::string& arg) {
    calls.push_back(arg.empty() ? method : method + " " + arg);
    auto it = errors.find(method);
    if (it == errors.end() || it->second.empty()) return Status();
    Status s = it->second.front();
    it->second.pop_front();
    return s;
  }
  bool IsStuck(const std::string& id) const {
    return std::find(stuck.begin(), stuck.end(), id) != stuck.end();
  }
};

// Hands calls on to a runtime the test owns, so Network::Cri can return a unique_ptr to it.
class ForwardingContainerRuntime final : public util::ContainerRuntime {
 public:
  explicit ForwardingContainerRuntime(util::ContainerRuntime& to) : to_(to) {}
  const std::string& Endpoint() const override { return to_.Endpoint(); }
  Result<util::CriVersion> Version() override { return to_.Version(); }
  Result<util::CriRuntimeStatus> RuntimeStatus() override { return to_.RuntimeStatus(); }
  Result<std::map<std::string, std::string>> RuntimeInfo() override { return to_.RuntimeInfo(); }
  Result<std::optional<std::string>> CgroupDriver() override { return to_.CgroupDriver(); }
  Result<std::optional<std::string>> ImageStatus(const std::string& image) override {
    return to_.ImageStatus(image);
  }
  Result<std::string> PullImage(const std::string& image) override { return to_.PullImage(image); }
  Result<std::vector<util::PodSandbox>> ListPodSandbox() override { return to_.ListPodSandbox(); }
  Status StopPodSandbox(const std::string& id) override { return to_.StopPodSandbox(id); }
  Status RemovePodSandbox(const std::string& id) override { return to_.RemovePodSandbox(id); }
  Result<std::vector<util::Container>> ListContainers(const std::string& sandbox) override {
    return to_.ListContainers(sandbox);
  }
  Status StopContainer(const std::string& id, std::chrono::seconds timeout) override {
    return to_.StopContainer(id, timeout);
  }
  Status RemoveContainer(const std::string& id) override { return to_.RemoveContainer(id); }

 private:
  util::ContainerRuntime& to_;
};

}  // namespace kkadm::testing
