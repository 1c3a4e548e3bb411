// Health polling for wait-control-plane (see wait.h).
#include "app/phases/waitcontrolplane/wait.h"

#include <spdlog/spdlog.h>

#include <cstdint>

namespace kkadm::phases {
namespace {

// "1.500" -> "1.5", "2.000" -> "2": Go prints fractions without trailing zeros.
std::string Fraction(std::uint64_t whole, std::uint64_t frac, int digits) {
  std::string out = std::to_string(whole);
  std::string f = std::to_string(frac);
  f.insert(0, static_cast<size_t>(digits) - f.size(), '0');
  while (!f.empty() && f.back() == '0') f.pop_back();
  return f.empty() ? out : out + "." + f;
}

constexpr const char* kKubeletTroubleshooting =
    "\nUnfortunately, an error has occurred:\n\t{ERROR}\n\n"
    "This error is likely caused by:\n"
    "\t- The kubelet is not running\n"
    "\t- The kubelet is unhealthy due to a misconfiguration of the node in some way (required "
    "cgroups disabled)\n\n"
    "If you are on a systemd-powered system, you can try to troubleshoot the error with the "
    "following commands:\n"
    "\t- 'systemctl status kubelet'\n"
    "\t- 'journalctl -xeu kubelet'\n";

constexpr const char* kControlPlaneTroubleshooting =
    "\nAdditionally, a control plane component may have crashed or exited when started by the "
    "container runtime.\n"
    "To troubleshoot, list all containers using your preferred container runtimes CLI.\n"
    "Here is one example how you may list all running Kubernetes containers by using crictl:\n"
    "\t- 'crictl --runtime-endpoint {SOCKET} ps -a | grep kube | grep -v pause'\n"
    "\tOnce you have found the failing container, you can inspect its logs with:\n"
    "\t- 'crictl --runtime-endpoint {SOCKET} logs CONTAINERID'\n\n";

std::string Fill(std::string text, const std::string& key, const std::string& value) {
  for (size_t at = text.find(key); at != std::string::npos;
       at = text.find(key, at + value.size())) {
    text.replace(at, key.size(), value);
  }
  return text;
}

Status Fail(util::Printer& out, const std::string& socket, const Status& cause) {
  out.Raw(KubeletTroubleshooting(cause.message()) +
          Fill(kControlPlaneTroubleshooting, "{SOCKET}", socket));
  return Unavailable("could not initialize a Kubernetes cluster");
}

double SecondsOf(std::chrono::nanoseconds d) {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count()) /
         1000.0;
}

}  // namespace

void ReportWaitStarted(const WaitReport& report, std::chrono::milliseconds timeout) {
  report.events.Emit(
      "WaitStarted",
      {{"what", report.what}, {"target", report.target}, {"timeoutSeconds", SecondsOf(timeout)}});
}

void ReportRetry(const WaitReport& report, int attempt, const Status& cause,
                 std::chrono::milliseconds pause) {
  report.events.Emit("Retry", {{"what", report.what},
                               {"attempt", attempt},
                               {"reason", cause.message()},
                               {"delaySeconds", SecondsOf(pause)}});
}

void ReportWaitFinished(const WaitReport& report, std::chrono::nanoseconds waited,
                        const Status* error) {
  nlohmann::json fields = {{"what", report.what},
                           {"result", error == nullptr ? "ready" : "timeout"},
                           {"durationSeconds", SecondsOf(waited)}};
  if (error != nullptr) fields["error"] = error->message();
  report.events.Emit("WaitFinished", std::move(fields));
}

std::string KubeletTroubleshooting(const std::string& error) {
  return Fill(kKubeletTroubleshooting, "{ERROR}", error);
}

std::string FormatGoDuration(std::chrono::nanoseconds d) {
  std::int64_t ns = d.count();
  std::string sign = ns < 0 ? "-" : "";
  const std::uint64_t u = ns < 0 ? static_cast<std::uint64_t>(-ns) : static_cast<std::uint64_t>(ns);
  if (u == 0) return "0s";
  if (u < 1000) return sign + std::to_string(u) + "ns";
  if (u < 1000000) return sign + Fraction(u / 1000, u % 1000, 3) + "µs";
  if (u < 1000000000) return sign + Fraction(u / 1000000, u % 1000000, 6) + "ms";
  const std::uint64_t secs = u / 1000000000, frac = u % 1000000000;
  const std::uint64_t hours = secs / 3600, minutes = (secs / 60) % 60;
  std::string out = sign;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  return out + Fraction(secs % 60, frac, 9) + "s";
}

Result<std::chrono::nanoseconds> PollUntilHealthy(util::Clock& clock,
                                                  const std::function<Status()>& probe,
                                                  std::chrono::milliseconds timeout,
                                                  std::chrono::milliseconds interval,
                                                  const WaitReport* report) {
  const auto start = clock.Now();
  const auto deadline = start + timeout;
  if (report != nullptr) ReportWaitStarted(*report, timeout);
  for (int attempt = 1;; ++attempt) {
    Status status = probe();
    const auto now = clock.Now();
    const auto waited = std::chrono::duration_cast<std::chrono::nanoseconds>(now - start);
    if (status.ok()) {
      if (report != nullptr) ReportWaitFinished(*report, waited, nullptr);
      return waited;
    }
    if (now >= deadline) {
      if (report != nullptr) ReportWaitFinished(*report, waited, &status);
      return Unavailable(status.message());
    }
    // Never sleep past the deadline: the last probe happens at it.
    const std::chrono::milliseconds pause =
        std::min(interval, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now) +
                               std::chrono::milliseconds(1));
    spdlog::debug("not healthy yet, probing again in {} ms: {}", pause.count(), status.message());
    if (report != nullptr) ReportRetry(*report, attempt, status, pause);
    clock.Sleep(pause);
  }
}

Result<std::chrono::nanoseconds> WaitForKubelet(
    util::Clock& clock, util::Printer& out,
    const std::function<Result<std::string>(const std::string&)>& http_get, const std::string& url,
    std::chrono::milliseconds timeout, const util::Events& events) {
  const WaitReport report{events, "kubelet", url};
  out.Line("kubelet-check", "Waiting for a healthy kubelet at " + url + ". This can take up to " +
                                FormatGoDuration(timeout));
  auto healthy = PollUntilHealthy(
      clock,
      [&] {
        auto body = http_get(url);
        if (body) return Status::Ok();
        return Unavailable("The HTTP call equal to 'curl -sSL " + url +
                           "' returned error: " + body.error().message());
      },
      timeout, kHealthPollInterval, &report);
  if (healthy)
    out.Line("kubelet-check", "The kubelet is healthy after " + FormatGoDuration(*healthy));
  return healthy;
}

Status WaitForControlPlane(util::Clock& clock, util::Printer& out,
                           const WaitControlPlaneInput& in) {
  out.Line("wait-control-plane",
           "Waiting for the kubelet to boot up the control plane as static Pods from directory \"" +
               in.manifest_dir + "\"");
  auto kubelet =
      WaitForKubelet(clock, out, in.http_get, kKubeletHealthzUrl, in.kubelet_timeout, in.events);
  if (!kubelet) return Fail(out, in.cri_socket, kubelet.error());

  auto client = in.client();
  if (!client) return Fail(out, in.cri_socket, client.error());
  out.Line("api-check", "Waiting for a healthy API server. This can take up to " +
                            FormatGoDuration(in.api_timeout));
  const WaitReport report{in.events, "api-server", "/livez"};
  auto api = PollUntilHealthy(
      clock, [&] { return (*client)->GetRaw("/livez").status(); }, in.api_timeout,
      kHealthPollInterval, &report);
  if (!api) {
    return Fail(out, in.cri_socket,
                Unavailable("the API server is not healthy after " +
                            FormatGoDuration(in.api_timeout) + ": " + api.error().message()));
  }
  out.Line("api-check", "The API server is healthy after " + FormatGoDuration(*api));
  return Status::Ok();
}

}  // namespace kkadm::phases
