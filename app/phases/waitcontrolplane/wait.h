// The waiting of wait-control-plane: polling a health probe against a Clock, and kubeadm's
// messages around it.
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "app/util/clock.h"
#include "app/util/events.h"
#include "app/util/kube_client.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kKubeletHealthzUrl = "http://127.0.0.1:10248/healthz";
inline constexpr std::chrono::milliseconds kHealthPollInterval{100};

// Go's time.Duration.String(): "4m0s", "501.583324ms", "1h0m0s", "0s".
std::string FormatGoDuration(std::chrono::nanoseconds d);

// What a wait tells machines (docs/events.md): WaitStarted, a Retry for each probe that failed,
// WaitFinished.
struct WaitReport {
  util::Events events;
  std::string what;    // "kubelet", "api-server", "tls-bootstrap"
  std::string target;  // what is probed, e.g. the URL
};

// The events of a wait that polls by itself rather than through PollUntilHealthy. `attempt`
// counts from 1; `error` is null when the wait ended with what it waited for.
void ReportWaitStarted(const WaitReport& report, std::chrono::milliseconds timeout);
void ReportRetry(const WaitReport& report, int attempt, const Status& cause,
                 std::chrono::milliseconds pause);
void ReportWaitFinished(const WaitReport& report, std::chrono::nanoseconds waited,
                        const Status* error);

// Calls `probe` until it succeeds, sleeping `interval` between calls through `clock`, for at most
// `timeout`. Success: the time from the first call to the healthy answer. Failure: the last
// probe error, code kUnavailable. With a report, the wait is also events.
Result<std::chrono::nanoseconds> PollUntilHealthy(
    util::Clock& clock, const std::function<Status()>& probe, std::chrono::milliseconds timeout,
    std::chrono::milliseconds interval = kHealthPollInterval, const WaitReport* report = nullptr);

// Prints "[kubelet-check] Waiting for a healthy kubelet at <url>. This can take up to <timeout>",
// polls `url` through `http_get` (PollUntilHealthy), then prints "[kubelet-check] The kubelet is
// healthy after <d>". kUnavailable "The HTTP call equal to 'curl -sSL <url>' returned error: ..."
// when it stays unhealthy.
Result<std::chrono::nanoseconds> WaitForKubelet(
    util::Clock& clock, util::Printer& out,
    const std::function<Result<std::string>(const std::string&)>& http_get, const std::string& url,
    std::chrono::milliseconds timeout, const util::Events& events = {});

struct WaitControlPlaneInput {
  std::string manifest_dir;
  std::string cri_socket;
  std::chrono::milliseconds kubelet_timeout;
  std::chrono::milliseconds api_timeout;
  // GET of the kubelet healthz URL; the API server's /livez through the client.
  std::function<Result<std::string>(const std::string&)> http_get;
  std::function<Result<util::KubeClient*>()> client;
  util::Events events = {};  // the waits, as events
};

// kubeadm's waiting: kubelet healthz, then the API server's /livez, with the [kubelet-check] and
// [api-check] lines. On failure prints the troubleshooting text and fails with
// "could not initialize a Kubernetes cluster".
Status WaitForControlPlane(util::Clock& clock, util::Printer& out, const WaitControlPlaneInput& in);

// kubeadm's "Unfortunately, an error has occurred: <error> ... 'journalctl -xeu kubelet'" text,
// shown when a kubelet does not come up (init adds the control-plane containers' part).
std::string KubeletTroubleshooting(const std::string& error);

}  // namespace kkadm::phases
