// CRI socket detection and connection, through the host's seams.
#include "app/phases/cri/cri_socket.h"

#include <fmt/format.h>

#include <vector>

#include "app/util/network.h"
#include "app/util/strings.h"

namespace kkadm::phases::cri {

Result<std::string> DetectCriSocket(const util::Host& host) {
  std::vector<std::string> found;
  for (const char* endpoint : kKnownCriSockets) {
    Result<std::string> path = util::CriSocketPath(endpoint);
    if (path && host.machine.CheckUnixSocket(host.fs.HostPath(*path)).ok()) {
      found.push_back(endpoint);
    }
  }
  if (found.empty()) return std::string(kKnownCriSockets[0]);
  if (found.size() == 1) return found[0];
  return InvalidArgument(
      "found multiple CRI endpoints on the host. Please define which one do you wish to use by "
      "setting the 'criSocket' field in the kubeadm configuration file: " +
      util::Join(found, ", "));
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
