// The "CRI" pre-flight check: the container runtime answers on its CRI socket (kubeadm's
// ContainerRuntimeCheck), waiting a bounded time for a socket that is not there yet.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/phases/preflight/check.h"
#include "app/util/printer.h"

namespace kkadm::phases::preflight {

// kkadm's default for --cri-socket-wait: long enough for a runtime that cloud-init or systemd
// starts beside kkadm, short enough that a node without one fails soon.
inline constexpr std::chrono::seconds kDefaultCriSocketWait{10};

struct CriCheckOptions {
  // How long to wait for a socket that does not exist yet; 0: not at all.
  std::chrono::milliseconds socket_wait = kDefaultCriSocketWait;
  // Where the progress line and the runtime's name and version go; null: nowhere.
  util::Printer* out = nullptr;
  // The KubeletConfiguration's cgroupDriver, compared with the runtime's when it reports one;
  // "": not compared.
  std::string kubelet_cgroup_driver;
};

// "CRI": the socket of `cri_socket` ("unix:///path" or a bare path, under --rootfs) exists
// (after up to `socket_wait`), the runtime answers Version and reports RuntimeReady (kubeadm does
// not require NetworkReady: no network plugin runs before init). Errors in kubeadm's words
// ("container runtime is not running: rpc error: code = Unavailable desc = ..."); a cgroup driver
// that differs from the kubelet's is a warning.
std::unique_ptr<Check> NewCriCheck(std::string cri_socket, CriCheckOptions options = {});

// The wait for the socket the CRI check uses: `wait`, or none when its errors are ignored ("cri" or
// "all" in the lower-cased `ignored` names): a check whose failure is only a warning is not worth
// waiting for.
std::chrono::milliseconds CriSocketWait(std::chrono::milliseconds wait,
                                        const std::set<std::string>& ignored);

// The cgroupDriver of a KubeletConfiguration document (null: none given), or `fallback` when it
// sets none (kubeadm defaults it to "systemd").
std::string KubeletCgroupDriver(const nlohmann::json& kubelet, const std::string& fallback);

}  // namespace kkadm::phases::preflight
