// RealWaiter polls; DryRunWaiter only says what it would wait for (see waiter.h).
#include "app/phases/waitcontrolplane/waiter.h"

#include "app/util/kube_apply.h"

namespace kkadm::phases {
namespace {

constexpr const char* kWouldWaitForAPIServer =
    "Would wait for the API Server's /livez endpoint to return 'ok'";
constexpr std::chrono::milliseconds kGrantRetryInterval{500};

}  // namespace

Status RealWaiter::WaitForControlPlane(const WaitControlPlaneInput& in) {
  return phases::WaitForControlPlane(clock_, out_, in);
}

Status RealWaiter::WaitForAdminAccess(std::chrono::milliseconds timeout,
                                      const std::function<Status()>& grant) {
  return util::RetryFor(clock_, timeout, kGrantRetryInterval, grant);
}

Status RealWaiter::WaitForAPIServer(const KubeClientSource& client,
                                    std::chrono::milliseconds timeout, const util::Events& events) {
  auto local = client();
  if (!local) return local.error();
  out_.Line("api-check",
            "Waiting for a healthy API server. This can take up to " + FormatGoDuration(timeout));
  const WaitReport report{events, "api-server", "/livez"};
  auto healthy = PollUntilHealthy(
      clock_, [&] { return (*local)->GetRaw("/livez").status(); }, timeout, kHealthPollInterval,
      &report);
  if (!healthy) {
    return Unavailable("the API server of this node is not healthy after " +
                       FormatGoDuration(timeout) + ": " + healthy.error().message());
  }
  out_.Line("api-check", "The API server is healthy after " + FormatGoDuration(*healthy));
  return Status::Ok();
}

Status DryRunWaiter::WaitForControlPlane(const WaitControlPlaneInput&) {
  out_.Line("dryrun", "Would wait for the kubelet to be healthy");
  out_.Line("dryrun", kWouldWaitForAPIServer);
  return Status::Ok();
}

Status DryRunWaiter::WaitForAdminAccess(std::chrono::milliseconds, const std::function<Status()>&) {
  return Status::Ok();
}

Status DryRunWaiter::WaitForAPIServer(const KubeClientSource&, std::chrono::milliseconds,
                                      const util::Events&) {
  out_.Line("dryrun", kWouldWaitForAPIServer);
  return Status::Ok();
}

}  // namespace kkadm::phases
