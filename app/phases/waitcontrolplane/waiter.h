// Waiter: what init and join wait for once the kubelet runs (kubeadm's apiclient.Waiter). The
// command builds one: a RealWaiter polls through the Clock; for --dry-run a DryRunWaiter waits for
// nothing and says what it would wait for (kubeadm's dryrun.Waiter).
#pragma once

#include <chrono>
#include <functional>
#include <memory>

#include "app/phases/waitcontrolplane/wait.h"
#include "app/util/clock.h"
#include "app/util/kube_client.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

// Builds a client on each call (one attempt per request: the waiter polls).
using KubeClientSource = std::function<Result<std::unique_ptr<util::KubeClient>>()>;

class Waiter {
 public:
  virtual ~Waiter() = default;

  // init: the kubelet, then the API server (WaitForControlPlane, wait.h). A dry run says "[dryrun]
  // Would wait for the kubelet to be healthy" and "... for the API Server's /livez endpoint ...".
  virtual Status WaitForControlPlane(const WaitControlPlaneInput& in) = 0;

  // init: admin.conf's rights. Calls `grant` (which creates what gives them) every 500 ms until
  // it succeeds, for at most `timeout`: RBAC may lag the API server's /livez by a moment. The
  // last error when it never does. A dry run, with no API server to grant anything, does nothing.
  virtual Status WaitForAdminAccess(std::chrono::milliseconds timeout,
                                    const std::function<Status()>& grant) = 0;

  // join: this node's own API server answers /livez through a client from `client` (kubeadm's
  // [api-check] lines); Unavailable "the API server of this node is not healthy after <timeout>:
  // <cause>" when it does not. The wait is events too (what: api-server). A dry run says
  // "[dryrun] Would wait for the API Server's /livez endpoint to return 'ok'".
  virtual Status WaitForAPIServer(const KubeClientSource& client, std::chrono::milliseconds timeout,
                                  const util::Events& events) = 0;
};

class RealWaiter final : public Waiter {
 public:
  RealWaiter(util::Clock& clock, util::Printer& out) : clock_(clock), out_(out) {}

  Status WaitForControlPlane(const WaitControlPlaneInput& in) override;
  Status WaitForAdminAccess(std::chrono::milliseconds timeout,
                            const std::function<Status()>& grant) override;
  Status WaitForAPIServer(const KubeClientSource& client, std::chrono::milliseconds timeout,
                          const util::Events& events) override;

 private:
  util::Clock& clock_;
  util::Printer& out_;
};

class DryRunWaiter final : public Waiter {
 public:
  explicit DryRunWaiter(util::Printer& out) : out_(out) {}

  Status WaitForControlPlane(const WaitControlPlaneInput& in) override;
  Status WaitForAdminAccess(std::chrono::milliseconds timeout,
                            const std::function<Status()>& grant) override;
  Status WaitForAPIServer(const KubeClientSource& client, std::chrono::milliseconds timeout,
                          const util::Events& events) override;

 private:
  util::Printer& out_;
};

}  // namespace kkadm::phases
