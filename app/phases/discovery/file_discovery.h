// kubeadm's file discovery (its discovery/file and discovery/https): a kubeconfig the user
// provides, from a local path or an https:// URL, names the API server and its CA; cluster-info is
// read once over TLS verified by that CA to check the connection.
#pragma once

#include <functional>
#include <string>

#include "app/phases/discovery/token_discovery.h"
#include "app/util/kubeconfig.h"
#include "app/util/status.h"

namespace kkadm::phases::discovery {

struct FileDiscoveryInput {
  std::string
      path_or_url;  // a local path, or an https:// URL (fetched with the system's trust store)
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::chrono::milliseconds first_interval{200};
  std::chrono::milliseconds max_interval{2000};
  std::chrono::milliseconds request_timeout{10000};
  // Reads a file of this machine (the discovery file and the files it names).
  std::function<Result<std::string>(const std::string&)> read_file;
};

struct FileDiscovery {
  VerifiedCluster cluster;
  // The discovery kubeconfig with every file it named embedded: its credentials, if any, are the
  // TLS bootstrap identity when no tlsBootstrapToken is given.
  util::Kubeconfig kubeconfig;
};

// Loads the kubeconfig (InvalidArgument naming the file when it cannot be read or has no
// cluster), then polls cluster-info anonymously over TLS verified by the kubeconfig's CA (the
// system's store when it has none) until it answers or the timeout passes. A Forbidden answer
// means the cluster does not publish cluster-info to anonymous users: the TLS connection was
// still verified, so discovery proceeds, as kubeadm does. A cluster-info with another server
// only warns; a kubeconfig without CA takes cluster-info's.
Result<FileDiscovery> DiscoverWithFile(const FileDiscoveryInput& in, DiscoveryEnv& env);

}  // namespace kkadm::phases::discovery
