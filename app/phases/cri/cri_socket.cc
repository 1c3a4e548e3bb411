// CRI socket detection and connection, through the host's seams.
#include "app/phases/cri/cri_socket.h"

#include <fmt/format.h>

#include <functional>
#include <vector>

#include "app/util/network.h"
#include "app/util/node_root.h"
#include "app/util/strings.h"

namespace kkadm::phases::cri {
namespace {

// kubeadm's choice among the known sockets for which `exists(node path)` holds.
Result<std::string> ChooseCriSocket(const std::function<bool(const std::string&)>& exists) {
  std::vector<std::string> found;
  for (const char* endpoint : kKnownCriSockets) {
    Result<std::string> path = util::CriSocketPath(endpoint);
    if (path && exists(*path)) found.push_back(endpoint);
  }
  if (found.empty()) return std::string(kKnownCriSockets[0]);
  if (found.size() == 1) return found[0];
  return InvalidArgument(
      "found multiple CRI endpoints on the host. Please define which one do you wish to use by "
      "setting the 'criSocket' field in the kubeadm configuration file: " +
      util::Join(found, ", "));
}

}  // namespace

Result<std::string> DetectCriSocket(const util::Host& host) {
  return ChooseCriSocket([&host](const std::string& path) {
    return host.machine.CheckUnixSocket(host.fs.HostPath(path)).ok();
  });
}

Result<std::string> DetectCriSocket(const util::Machine& machine, const std::string& rootfs) {
  const util::NodeRoot root(rootfs);
  return ChooseCriSocket(
      [&](const std::string& path) { return machine.CheckUnixSocket(root.Resolve(path)).ok(); });
}

config::CriSocketDetector NodeCriSocketDetector(const util::Machine& machine,
                                                const std::string& rootfs) {
  return [&machine, &rootfs] { return DetectCriSocket(machine, rootfs); };
}

Result<std::string> CriSocketOrDetected(const util::Host& host, const std::string& endpoint) {
  if (!endpoint.empty()) return endpoint;
  return DetectCriSocket(host);
}

Result<std::unique_ptr<util::ContainerRuntime>> ConnectCri(const util::Host& host,
                                                           const std::string& endpoint) {
  Result<std::string> path = util::CriSocketPath(endpoint);
  if (!path) return path.error();
  util::CriClientOptions options;
  options.endpoint = endpoint;
  options.socket_path = host.fs.HostPath(*path);
  return host.net.Cri(options);
}

}  // namespace kkadm::phases::cri
