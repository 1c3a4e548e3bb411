// kubelet-start for a joining node: bootstrap kubeconfig, kubelet files, start, wait, annotate.
#include "app/phases/join/kubelet_bootstrap.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/phases/kubelet/kubelet_start.h"
#include "app/phases/uploadconfig/upload_config.h"
#include "app/phases/waitcontrolplane/wait.h"
#include "app/util/kubeconfig.h"

namespace kkadm::phases {
namespace {

constexpr const char* kKubeletStartPrefix = "kubelet-start";
constexpr std::chrono::milliseconds kTlsBootstrapPollInterval{200};

// Removes the bootstrap credential from disk when kubelet-start ends, however it ends.
class RemoveOnExit {
 public:
  RemoveOnExit(util::FileSystem& fs, std::string path) : fs_(fs), path_(std::move(path)) {}
  ~RemoveOnExit() {
    if (Status s = fs_.Remove(path_); !s.ok()) spdlog::warn("removing {}: {}", path_, s.message());
  }
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;

 private:
  util::FileSystem& fs_;
  std::string path_;
};

Status WriteBootstrapFiles(JoinData& data, const JoinCluster& cluster) {
  spdlog::info("[kubelet-start] writing bootstrap kubelet config file at {}",
               data.bootstrap_kubeconfig_path());
  KKADM_RETURN_IF_ERROR(data.fs()
                            .WriteFile(data.bootstrap_kubeconfig_path(),
                                       util::EncodeKubeconfig(cluster.tls_bootstrap), 0600)
                            .Wrap("couldn't save bootstrap-kubelet.conf to disk"));
  if (data.fs().Exists(data.cfg.ca_cert_path)) return Status::Ok();
  spdlog::info("[kubelet-start] writing CA certificate at {}", data.cfg.ca_cert_path);
  return data.fs()
      .WriteFile(data.cfg.ca_cert_path, cluster.ca_pem, 0644)
      .Wrap("couldn't save the CA certificate to disk");
}

// Polls until kubelet.conf and the files it names make a client: the kubelet's TLS bootstrap is
// done.
Result<std::unique_ptr<util::KubeClient>> WaitForTlsBootstrap(JoinData& data) {
  data.printer().Line(kKubeletStartPrefix, "Waiting for the kubelet to perform the TLS Bootstrap");
  util::Clock& clock = data.host->clock;
  const auto deadline = clock.Now() + data.cfg.timeouts.tls_bootstrap;
  while (true) {
    auto client = data.client_from_kubeconfig(data.kubelet_kubeconfig_path());
    if (client) return client;
    const auto now = clock.Now();
    if (now >= deadline) {
      return Unavailable(
          fmt::format("timed out waiting for the kubelet's TLS bootstrap after {}: {}",
                      FormatGoDuration(data.cfg.timeouts.tls_bootstrap), client.error().message()));
    }
    clock.Sleep(std::min(kTlsBootstrapPollInterval,
                         std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now)));
  }
}

}  // namespace

std::string KubeletHealthzUrl(const nlohmann::json& kubelet_config) {
  std::string address = "127.0.0.1";
  int port = 10248;
  if (kubelet_config.is_object()) {
    auto a = kubelet_config.find("healthzBindAddress");
    if (a != kubelet_config.end() && a->is_string() && !a->get<std::string>().empty()) address = *a;
    auto p = kubelet_config.find("healthzPort");
    if (p != kubelet_config.end() && p->is_number_integer()) port = p->get<int>();
  }
  const bool v6 = address.find(':') != std::string::npos;
  return fmt::format("http://{}:{}/healthz", v6 ? "[" + address + "]" : address, port);
}

KubeletStartInput JoinKubeletStartInput(const JoinData& data, const JoinCluster& cluster) {
  const config::InitConfiguration& init = cluster.init_cfg;
  // Workers register with their taints; a control-plane node gets them from mark-control-plane.
  return KubeletStartInput{.cluster = init.cluster,
                           .node = data.cfg.node_registration,
                           .kubelet_config = init.component_configs.kubelet,
                           .kubelet_dir = data.kubelet_dir,
                           .kubeconfig_dir = data.kubeconfig_dir,
                           .manifest_dir = data.manifest_dir,
                           .register_taints = !data.control_plane(),
                           .patches = data.patches};
}

Status RunJoinKubeletStart(JoinData& data) {
  auto cluster = data.cluster();
  if (!cluster) return cluster.error();
  const KubeletStartInput in = JoinKubeletStartInput(data, **cluster);
  // A patch that does not apply is found before the bootstrap files are written.
  KKADM_RETURN_IF_ERROR(CheckKubeletConfigPatches(*data.host, in));
  RemoveOnExit remove_bootstrap(data.fs(), data.bootstrap_kubeconfig_path());
  KKADM_RETURN_IF_ERROR(WriteBootstrapFiles(data, **cluster));
  KKADM_RETURN_IF_ERROR(RunKubeletStart(*data.host, data.printer(), in));
  return data.kubelet_bootstrap->WaitAndAnnotate(**cluster);
}

Status RealKubeletBootstrapWaiter::WaitAndAnnotate(const JoinCluster& cluster) {
  const auto& node = data_.cfg.node_registration;
  auto healthy = WaitForKubelet(data_.host->clock, data_.printer(), data_.http_get,
                                KubeletHealthzUrl(cluster.init_cfg.component_configs.kubelet),
                                data_.cfg.timeouts.kubelet_health_check);
  Result<std::unique_ptr<util::KubeClient>> client =
      healthy ? WaitForTlsBootstrap(data_)
              : Result<std::unique_ptr<util::KubeClient>>(healthy.error());
  if (!client) {
    data_.printer().Raw(KubeletTroubleshooting(client.error().message()));
    return client.error();
  }
  return AnnotateCriSocket(**client, data_.host->clock, node.name, node.cri_socket,
                           data_.cfg.timeouts.kubernetes_api_call)
      .Wrap("error writing CRISocket for this node");
}

Status DryRunKubeletBootstrapWaiter::WaitAndAnnotate(const JoinCluster&) {
  out_.Line(kKubeletStartPrefix, "Would wait for the kubelet to perform the TLS Bootstrap");
  out_.Line(kKubeletStartPrefix, "Would annotate the Node with its CRI socket");
  return Status::Ok();
}

}  // namespace kkadm::phases
