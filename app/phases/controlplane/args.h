// The command lines of kube-apiserver, kube-controller-manager and kube-scheduler: kubeadm's
// default flags for the configuration merged with the user's extraArgs.
#pragma once

#include <string>
#include <vector>

#include "app/phases/controlplane/static_pod_input.h"

namespace kkadm::phases {

// "kube-apiserver" followed by its sorted --name=value flags.
std::vector<std::string> APIServerCommand(const StaticPodInput& input);
// "kube-controller-manager" followed by its sorted flags.
std::vector<std::string> ControllerManagerCommand(const StaticPodInput& input);
// "kube-scheduler" followed by its sorted flags.
std::vector<std::string> SchedulerCommand(const StaticPodInput& input);

// The kube-apiserver authorization modes for a user's comma-separated `requested` value: the known
// modes it names (Node, RBAC, Webhook, ABAC, AlwaysAllow, AlwaysDeny), or "Node,RBAC" when it is
// empty or names none.
std::string AuthorizationModes(const std::string& requested);

}  // namespace kkadm::phases
