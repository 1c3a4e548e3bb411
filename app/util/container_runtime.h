// ContainerRuntime: the container runtime as kkadm sees it, through the Kubernetes CRI v1 API
// (runtime.v1.RuntimeService and ImageService over a unix socket), only the calls kubeadm makes:
// preflight asks Version, Status (and its verbose info) and the cgroup driver; image pulling asks
// ImageStatus and PullImage; reset lists, stops and removes pod sandboxes and containers.
//
// The real client speaks gRPC from a shared object loaded on first use (app/util/cri/); a dry run
// wraps it (reads pass through, writes are printed); unit tests use tests/fakes/fake_container_
// runtime.h. Clients come from util::Network::Cri().
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/util/status.h"

namespace kkadm::util {

// How a gRPC status code maps to a kkadm StatusCode (every error's message starts with Go's
// rendering of the gRPC error, "rpc error: code = NotFound desc = ...", so the gRPC code's name
// is never lost):
//   UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED -> kUnavailable (retrying may help)
//   NOT_FOUND -> kNotFound            ALREADY_EXISTS -> kAlreadyExists
//   INVALID_ARGUMENT, OUT_OF_RANGE -> kInvalidArgument
//   FAILED_PRECONDITION, UNIMPLEMENTED -> kFailedPrecondition
//   PERMISSION_DENIED -> kPermissionDenied   UNAUTHENTICATED -> kUnauthenticated
//   ABORTED -> kAborted               anything else (UNKNOWN, INTERNAL, ...) -> kInternal
// A socket that is not there is kUnavailable, as gRPC reports it.

// VersionResponse.
struct CriVersion {
  std::string version;              // the CRI client API version the runtime speaks ("0.1.0")
  std::string runtime_name;         // "containerd"
  std::string runtime_version;      // "1.6.20~ds1"
  std::string runtime_api_version;  // "v1"
};

// RuntimeCondition: "RuntimeReady" and "NetworkReady" are the ones the CRI defines.
struct CriCondition {
  std::string type;
  bool status = false;
  std::string reason;
  std::string message;
};

struct CriRuntimeStatus {
  std::vector<CriCondition> conditions;
  // The condition of `type`, or nullptr when the runtime did not report it.
  const CriCondition* Find(const std::string& type) const {
    for (const CriCondition& c : conditions) {
      if (c.type == type) return &c;
    }
    return nullptr;
  }
};

// PodSandbox (ListPodSandbox); state as the CRI numbers it.
enum class SandboxState { kReady = 0, kNotReady = 1 };
struct PodSandbox {
  std::string id;
  std::string name, uid, namespace_name;  // its PodSandboxMetadata
  SandboxState state = SandboxState::kNotReady;
  std::map<std::string, std::string> labels;
};

// Container (ListContainers); state as the CRI numbers it.
enum class ContainerState { kCreated = 0, kRunning = 1, kExited = 2, kUnknown = 3 };
struct Container {
  std::string id;
  std::string pod_sandbox_id;
  std::string name;  // its ContainerMetadata.name
  std::string image;
  ContainerState state = ContainerState::kUnknown;
};

class ContainerRuntime {
 public:
  virtual ~ContainerRuntime() = default;

  // The endpoint the client talks to, as configured ("unix:///var/run/containerd/containerd.sock").
  virtual const std::string& Endpoint() const = 0;

  virtual Result<CriVersion> Version() = 0;
  // RuntimeService.Status (verbose false).
  virtual Result<CriRuntimeStatus> RuntimeStatus() = 0;
  // RuntimeService.Status with verbose true: the runtime's own information, each value JSON
  // (containerd: "config" holds its CRI configuration, sandboxImage among it).
  virtual Result<std::map<std::string, std::string>> RuntimeInfo() = 0;
  // RuntimeConfig's linux.cgroup_driver: "systemd" or "cgroupfs"; nullopt when the runtime does
  // not report it (runtimes before CRI 1.28, e.g. containerd 1.6, answer UNIMPLEMENTED).
  virtual Result<std::optional<std::string>> CgroupDriver() = 0;

  // ImageService.ImageStatus: the image's id when `image` is present, nullopt when it is not.
  virtual Result<std::optional<std::string>> ImageStatus(const std::string& image) = 0;
  // ImageService.PullImage (no credentials, no sandbox config: the runtime's own registry
  // configuration applies): the image reference the runtime returns.
  virtual Result<std::string> PullImage(const std::string& image) = 0;

  // Every pod sandbox the runtime knows, in any state (no filter, as kubeadm lists them).
  virtual Result<std::vector<PodSandbox>> ListPodSandbox() = 0;
  // Stopping or removing a sandbox that is gone is OK (the CRI makes both idempotent).
  virtual Status StopPodSandbox(const std::string& id) = 0;
  virtual Status RemovePodSandbox(const std::string& id) = 0;

  // Every container, or only those of the sandbox `pod_sandbox_id` when it is not empty.
  virtual Result<std::vector<Container>> ListContainers(const std::string& pod_sandbox_id) = 0;
  // Stops with `timeout` for the container's graceful stop before it is killed.
  virtual Status StopContainer(const std::string& id, std::chrono::seconds timeout) = 0;
  virtual Status RemoveContainer(const std::string& id) = 0;
};

// How a client is made (util::Network::Cri).
struct CriClientOptions {
  // "unix:///path" (a bare absolute path is taken as one) as nodeRegistration.criSocket says it.
  std::string endpoint;
  // The host path of the socket: the endpoint's path under --rootfs. Empty: the endpoint's path.
  std::string socket_path;
  // The deadline of each call (kubeadm's CRI client: 2 minutes).
  std::chrono::milliseconds call_timeout{std::chrono::minutes(2)};
};

// The socket path of a CRI endpoint: "unix:///run/x.sock" -> "/run/x.sock", and a bare absolute
// path as it is. InvalidArgument for any other scheme ("tcp://", "npipe://").
Result<std::string> CriSocketPath(const std::string& endpoint);

}  // namespace kkadm::util
