// Network: the one factory for clients that leave the process: HTTP(S), the Kubernetes API, etcd,
// the container runtime (CRI). Commands build one (RealNetwork, over libcurl and gRPC) and hand it
// to phases in util::Host; tests hand in a fake, so no phase or command builds a client itself.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "app/util/clock.h"
#include "app/util/container_runtime.h"
#include "app/util/etcd_client.h"
#include "app/util/events.h"
#include "app/util/file_system.h"
#include "app/util/http_client.h"
#include "app/util/kube_client.h"
#include "app/util/kube_client_real.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::util {

class Network {
 public:
  virtual ~Network() = default;
  virtual std::unique_ptr<HttpClient> Http(const HttpClientOptions& options) = 0;
  // A Kubernetes API client for `config` (its *_pem fields; the *_file fields are ignored).
  virtual std::unique_ptr<KubeClient> Kube(KubeClientConfig config) = 0;
  virtual std::unique_ptr<EtcdClient> Etcd(EtcdClientConfig config) = 0;
  // A CRI client for the runtime at `options.endpoint`. It connects on its first call; Internal
  // when the gRPC client library cannot be loaded.
  virtual Result<std::unique_ptr<ContainerRuntime>> Cri(const CriClientOptions& options) = 0;
};

// libcurl's clients: RealKubeClient and EtcdClient over NewHttpClient; the gRPC CRI client
// (app/util/cri/), which in a dry run (`dry_run` set) reads from the runtime and only prints the
// changes it would make.
class RealNetwork final : public Network {
 public:
  explicit RealNetwork(Printer* dry_run = nullptr) : dry_run_(dry_run) {}
  // The Kubernetes API and etcd clients made from now on report their retries to `events`
  // (unless their config names a sink already): one place for -o json and --events.
  void set_events(Events events) { events_ = events; }
  std::unique_ptr<HttpClient> Http(const HttpClientOptions& options) override;
  std::unique_ptr<KubeClient> Kube(KubeClientConfig config) override;
  std::unique_ptr<EtcdClient> Etcd(EtcdClientConfig config) override;
  Result<std::unique_ptr<ContainerRuntime>> Cri(const CriClientOptions& options) override;

 private:
  Printer* dry_run_;
  Events events_;
};

// The body of a plain GET (the kubelet's http://127.0.0.1:10248/healthz) that answered 200;
// Unavailable "GET <url>: HTTP <status>" for any other status, or the transport's error.
Result<std::string> GetOk(Network& net, const std::string& url);

// How long a client from a kubeconfig file keeps trying (kubeadm's kubernetesAPICall) and how
// long each request, connection included, may take.
struct KubeClientTimeouts {
  Clock& clock;
  std::chrono::milliseconds api_call{std::chrono::minutes(1)};
  std::chrono::milliseconds request{std::chrono::seconds(10)};
};

// A client for the kubeconfig file `path` at its current context; the certificate and key files
// it names are read through `fs` (so --rootfs and a dry run's overlay apply). InvalidArgument
// naming the file when it cannot be read or parsed.
Result<std::unique_ptr<KubeClient>> KubeClientFromKubeconfigFile(
    Network& net, const FileSystem& fs, const std::string& path,
    const KubeClientTimeouts& timeouts);

}  // namespace kkadm::util
