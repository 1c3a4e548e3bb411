// The work of mark-control-plane (kubeadm's phases/markcontrolplane): control-plane labels and
// taints on the Node.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "app/config/types.h"
#include "app/util/clock.h"
#include "app/util/kube_client.h"
#include "app/util/printer.h"
#include "app/util/status.h"

namespace kkadm::phases {

inline constexpr const char* kControlPlaneLabel = "node-role.kubernetes.io/control-plane";
inline constexpr const char* kExcludeFromLoadBalancersLabel =
    "node.kubernetes.io/exclude-from-external-load-balancers";

// nodeRegistration.taints as kubeadm applies them on a control-plane node: nullopt means the
// control-plane NoSchedule taint, an empty list means none.
std::vector<config::Taint> ControlPlaneTaints(
    const std::optional<std::vector<config::Taint>>& taints);

// "key=value:Effect", or "key:Effect" without a value.
std::string TaintString(const config::Taint& taint);

// Prints kubeadm's two lines, then waits (500 ms steps, at most `timeout`) for the Node and patches
// it: both labels set to "", taints = `taints` followed by the Node's taints whose key and effect
// are not among them.
Status MarkControlPlane(util::KubeClient& client, util::Clock& clock, util::Printer& out,
                        const std::string& node_name, const std::vector<config::Taint>& taints,
                        std::chrono::milliseconds timeout);

}  // namespace kkadm::phases
