// The CRI pre-flight check, over util::Network::Cri.
#include "app/phases/preflight/checks_cri.h"

#include <fmt/format.h>

#include <utility>

#include "app/util/duration.h"
#include "app/util/network.h"

namespace kkadm::phases::preflight {
namespace {

constexpr std::chrono::milliseconds kSocketPoll{100};
constexpr const char* kNotRunning = "container runtime is not running: ";

// kubeadm's (Go gRPC's) words for a socket that is not there.
std::string NoSocketError(const std::string& path, const Status& status) {
  if (status.code() != StatusCode::kNotFound) return status.message();
  return fmt::format(
      "rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while "
      "dialing: dial unix {}: connect: no such file or directory\"",
      path);
}

class CriCheck final : public Check {
 public:
  CriCheck(std::string endpoint, CriCheckOptions options)
      : endpoint_(std::move(endpoint)), options_(std::move(options)) {}
  std::string Name() const override { return "CRI"; }

  CheckResult Run(const util::Host& host) const override {
    Result<std::string> path = util::CriSocketPath(endpoint_);
    if (!path) return {{}, {kNotRunning + path.error().message()}};
    const std::string host_path = host.fs.HostPath(*path);
    Status socket = WaitForSocket(host, host_path);
    if (!socket.ok()) return {{}, {kNotRunning + NoSocketError(*path, socket)}};
    util::CriClientOptions client;
    client.endpoint = endpoint_;
    client.socket_path = host_path;
    Result<std::unique_ptr<util::ContainerRuntime>> cri = host.net.Cri(client);
    if (!cri) return {{}, {kNotRunning + cri.error().message()}};
    return Ask(**cri);
  }

 private:
  // The socket's state once it exists or `socket_wait` has passed, with one progress line.
  Status WaitForSocket(const util::Host& host, const std::string& path) const {
    Status status = host.machine.CheckUnixSocket(path);
    if (status.code() != StatusCode::kNotFound || options_.socket_wait.count() <= 0) return status;
    if (options_.out != nullptr) {
      options_.out->Line("preflight",
                         fmt::format("Waiting up to {} for the container runtime's socket {}",
                                     util::FormatDuration(options_.socket_wait), path));
    }
    const auto deadline = host.clock.Now() + options_.socket_wait;
    while (status.code() == StatusCode::kNotFound && host.clock.Now() < deadline) {
      host.clock.Sleep(kSocketPoll);
      status = host.machine.CheckUnixSocket(path);
    }
    return status;
  }

  CheckResult Ask(util::ContainerRuntime& cri) const {
    Result<util::CriVersion> version = cri.Version();
    if (!version) return {{}, {kNotRunning + version.error().message()}};
    Result<util::CriRuntimeStatus> status = cri.RuntimeStatus();
    if (!status) return {{}, {kNotRunning + status.error().message()}};
    const util::CriCondition* ready = status->Find("RuntimeReady");
    if (ready != nullptr && !ready->status) {
      return {{},
              {fmt::format("{}container runtime condition \"RuntimeReady\" is not true. reason: "
                           "{}, message: {}",
                           kNotRunning, ready->reason, ready->message)}};
    }
    Report(*version, *status);
    CheckResult result;
    if (!options_.kubelet_cgroup_driver.empty()) CompareCgroupDriver(cri, result);
    return result;
  }

  void Report(const util::CriVersion& version, const util::CriRuntimeStatus& status) const {
    if (options_.out == nullptr) return;
    const util::CriCondition* network = status.Find("NetworkReady");
    std::string network_state = network == nullptr ? "not reported"
                                : network->status  ? "ready"
                                                   : "not ready (" + network->reason + ")";
    options_.out->Line("preflight",
                       fmt::format("Container runtime {} {} (CRI API {}) at {}: network {}",
                                   version.runtime_name, version.runtime_version,
                                   version.runtime_api_version, endpoint_, network_state));
  }

  void CompareCgroupDriver(util::ContainerRuntime& cri, CheckResult& result) const {
    Result<std::optional<std::string>> driver = cri.CgroupDriver();
    if (!driver) {
      result.warnings.push_back("could not read the container runtime's cgroup driver: " +
                                driver.error().message());
      return;
    }
    if (!driver->has_value() || **driver == options_.kubelet_cgroup_driver) return;
    result.warnings.push_back(fmt::format(
        "the container runtime uses the \"{}\" cgroup driver but the kubelet is configured for "
        "\"{}\": set cgroupDriver: {} in the KubeletConfiguration, or the kubelet will fail",
        **driver, options_.kubelet_cgroup_driver, **driver));
  }

  std::string endpoint_;
  CriCheckOptions options_;
};

}  // namespace

std::chrono::milliseconds CriSocketWait(std::chrono::milliseconds wait,
                                        const std::set<std::string>& ignored) {
  if (ignored.count("cri") > 0 || ignored.count("all") > 0) return std::chrono::milliseconds(0);
  return wait;
}

std::string KubeletCgroupDriver(const nlohmann::json& kubelet, const std::string& fallback) {
  if (kubelet.is_object()) {
    auto it = kubelet.find("cgroupDriver");
    if (it != kubelet.end() && it->is_string() && !it->get<std::string>().empty()) {
      return it->get<std::string>();
    }
  }
  return fallback;
}

std::unique_ptr<Check> NewCriCheck(std::string cri_socket, CriCheckOptions options) {
  return std::make_unique<CriCheck>(std::move(cri_socket), std::move(options));
}

}  // namespace kkadm::phases::preflight
