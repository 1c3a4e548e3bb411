// The `preflight` phase of `kkadm join`.
#pragma once

#include "app/phases/join/join_data.h"
#include "app/phases/preflight/check.h"
#include "app/phases/preflight/join_checks.h"
#include "app/util/status.h"
#include "app/workflow/phase.h"

namespace kkadm::phases {

workflow::Phase NewJoinPreflightPhase(JoinData& data);

// kubeadm's JoinNodeChecks, in its order: FileAvailable for kubelet.conf and
// bootstrap-kubelet.conf, the common node checks, FileAvailable for caCertPath (workers), and for
// token discovery HTTPProxy and IP forwarding for the endpoint's host.
preflight::CheckList JoinNodeChecks(const JoinData& data);

// The whole preflight phase: "[preflight] Running pre-flight checks", the root check alone, the
// join node checks (those only kkadm's own earlier work recorded in data.own_work fails are left
// out, with a line saying so), discovery, the Node check (a Ready Node of this name passes when
// the kubelet kkadm started here holds its identity), and for a control-plane join
// CheckReadyForControlPlane and the init checks of a secondary control-plane node. Changes nothing
// on the node. Sets data.preflight_checks_failed when a check (not discovery) failed.
Status RunJoinPreflight(JoinData& data);

}  // namespace kkadm::phases
