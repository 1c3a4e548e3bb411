// The waits of a control-plane restart: probing a component's health URL, or for a dry run
// saying what would be waited for (see restart.h).
#include <fmt/format.h>

#include "app/phases/certs/restart.h"
#include "app/phases/waitcontrolplane/wait.h"

namespace kkadm::phases::certs {
namespace {

// The kubelet's probes give up after their timeoutSeconds; a component that does not answer
// within a few seconds is, for a restart, one that is not there.
util::HttpClientOptions ProbeOptions() {
  util::HttpClientOptions options;
  options.insecure_skip_tls_verify = true;  // as the kubelet's probes; nothing secret is sent
  options.connect_timeout = std::chrono::seconds(2);
  options.request_timeout = std::chrono::seconds(5);
  options.max_response_bytes = 64 << 10;
  return options;
}

class ProbingComponentWaiter final : public ComponentWaiter {
 public:
  ProbingComponentWaiter(util::Network& net, util::Clock& clock, util::Printer& out)
      : http_(net.Http(ProbeOptions())), clock_(clock), out_(out) {}

  Status WaitStopped(const StaticPodComponent& c, std::chrono::milliseconds timeout) override {
    out_.Line(kRestartPrefix,
              fmt::format("Waiting up to {} for the kubelet to stop {} ({} no longer answering)",
                          FormatGoDuration(timeout), c.name, c.health_url));
    auto waited = PollUntilHealthy(
        clock_,
        [&]() -> Status {
          auto answer = http_->Get(c.health_url);
          if (!answer) return Status();
          return Unavailable(
              fmt::format("{} still answers (HTTP {})", c.health_url, answer->status));
        },
        timeout);
    if (!waited) return waited.error();
    out_.Line(kRestartPrefix,
              fmt::format("The kubelet stopped {} after {}", c.name, FormatGoDuration(*waited)));
    return Status();
  }

  Status WaitHealthy(const StaticPodComponent& c, std::chrono::milliseconds timeout) override {
    out_.Line(kRestartPrefix, fmt::format("Waiting up to {} for a healthy {} at {}",
                                          FormatGoDuration(timeout), c.name, c.health_url));
    auto waited = PollUntilHealthy(
        clock_,
        [&]() -> Status {
          auto answer = http_->Get(c.health_url);
          if (!answer) return answer.error();
          if (answer->status == 200) return Status();
          return Unavailable(fmt::format("GET {}: HTTP {}", c.health_url, answer->status));
        },
        timeout);
    if (!waited) return waited.error();
    out_.Line(kRestartPrefix,
              fmt::format("{} is healthy after {}", c.name, FormatGoDuration(*waited)));
    return Status();
  }

 private:
  std::unique_ptr<util::HttpClient> http_;
  util::Clock& clock_;
  util::Printer& out_;
};

class DryRunComponentWaiter final : public ComponentWaiter {
 public:
  explicit DryRunComponentWaiter(util::Printer& out) : out_(out) {}

  Status WaitStopped(const StaticPodComponent& c, std::chrono::milliseconds timeout) override {
    out_.Line("dryrun",
              fmt::format("Would wait up to {} for the kubelet to stop {} ({} no longer answering)",
                          FormatGoDuration(timeout), c.name, c.health_url));
    return Status();
  }
  Status WaitHealthy(const StaticPodComponent& c, std::chrono::milliseconds timeout) override {
    out_.Line("dryrun", fmt::format("Would wait up to {} for a healthy {} at {}",
                                    FormatGoDuration(timeout), c.name, c.health_url));
    return Status();
  }

 private:
  util::Printer& out_;
};

}  // namespace

std::unique_ptr<ComponentWaiter> NewProbingComponentWaiter(util::Network& net, util::Clock& clock,
                                                           util::Printer& out) {
  return std::make_unique<ProbingComponentWaiter>(net, clock, out);
}

std::unique_ptr<ComponentWaiter> NewDryRunComponentWaiter(util::Printer& out) {
  return std::make_unique<DryRunComponentWaiter>(out);
}

}  // namespace kkadm::phases::certs
