// kubelet-start for a joining node: bootstrap kubeconfig, kubelet files, start, wait, annotate.
#include "app/phases/kubelet/kubelet_bootstrap.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "app/phases/kubelet/kubelet_start.h"
#include "app/phases/uploadconfig/upload_config.h"
#include "app/phases/waitcontrolplane/wait.h"
#include "app/util/kubeconfig.h"
#include "app/util/network.h"

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

Status WriteBootstrapFiles(util::FileSystem& fs, const KubeletBootstrap& in) {
  spdlog::info("[kubelet-start] writing bootstrap kubelet config file at {}",
               in.bootstrap_kubeconfig);
  KKADM_RETURN_IF_ERROR(
      fs.WriteFile(in.bootstrap_kubeconfig, util::EncodeKubeconfig(in.identity), 0600)
          .Wrap("couldn't save bootstrap-kubelet.conf to disk"));
  if (fs.Exists(in.ca_cert_path)) return Status::Ok();
  spdlog::info("[kubelet-start] writing CA certificate at {}", in.ca_cert_path);
  return fs.WriteFile(in.ca_cert_path, in.ca_pem, 0644)
      .Wrap("couldn't save the CA certificate to disk");
}

// Polls until kubelet.conf and the files it names make a client: the kubelet's TLS bootstrap is
// done.
Result<std::unique_ptr<util::KubeClient>> WaitForTlsBootstrap(util::Host& host, util::Printer& out,
                                                              const KubeletBootstrap& in) {
  out.Line(kKubeletStartPrefix, "Waiting for the kubelet to perform the TLS Bootstrap");
  util::Clock& clock = host.clock;
  const WaitReport report{in.events, "tls-bootstrap", in.kubelet_kubeconfig};
  const auto start = clock.Now();
  const auto deadline = start + in.tls_bootstrap;
  ReportWaitStarted(report, in.tls_bootstrap);
  for (int attempt = 1;; ++attempt) {
    auto client = util::KubeClientFromKubeconfigFile(host.net, host.fs, in.kubelet_kubeconfig,
                                                     {.clock = clock, .api_call = in.api_call});
    const auto now = clock.Now();
    if (client) {
      ReportWaitFinished(report, now - start, nullptr);
      return client;
    }
    if (now >= deadline) {
      ReportWaitFinished(report, now - start, &client.error());
      return Unavailable(
          fmt::format("timed out waiting for the kubelet's TLS bootstrap after {}: {}",
                      FormatGoDuration(in.tls_bootstrap), client.error().message()));
    }
    const auto pause =
        std::min(kTlsBootstrapPollInterval,
                 std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now));
    ReportRetry(report, attempt, client.error(), pause);
    clock.Sleep(pause);
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

Status BootstrapKubelet(util::Host& host, util::Printer& out, const KubeletStartInput& start,
                        const KubeletBootstrap& in, KubeletBootstrapWaiter& waiter) {
  // A patch that does not apply, or a drop-in overriding kkadm's, is found before the bootstrap
  // files are written.
  KKADM_RETURN_IF_ERROR(CheckKubeletStart(host, start));
  RemoveOnExit remove_bootstrap(host.fs, in.bootstrap_kubeconfig);
  KKADM_RETURN_IF_ERROR(WriteBootstrapFiles(host.fs, in));
  KKADM_RETURN_IF_ERROR(RunKubeletStart(host, out, start));
  return waiter.WaitAndAnnotate(in);
}

Status RealKubeletBootstrapWaiter::WaitAndAnnotate(const KubeletBootstrap& in) {
  auto http_get = [this](const std::string& url) { return util::GetOk(host_.net, url); };
  auto healthy = WaitForKubelet(host_.clock, out_, http_get, in.healthz_url,
                                in.kubelet_health_check, in.events);
  Result<std::unique_ptr<util::KubeClient>> client =
      healthy ? WaitForTlsBootstrap(host_, out_, in)
              : Result<std::unique_ptr<util::KubeClient>>(healthy.error());
  if (!client) {
    out_.Raw(KubeletTroubleshooting(client.error().message()));
    return client.error();
  }
  return AnnotateCriSocket(**client, host_.clock, in.node_name, in.cri_socket, in.api_call)
      .Wrap("error writing CRISocket for this node");
}

Status DryRunKubeletBootstrapWaiter::WaitAndAnnotate(const KubeletBootstrap&) {
  out_.Line(kKubeletStartPrefix, "Would wait for the kubelet to perform the TLS Bootstrap");
  out_.Line(kKubeletStartPrefix, "Would annotate the Node with its CRI socket");
  return Status::Ok();
}

}  // namespace kkadm::phases
