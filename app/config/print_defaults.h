// What `kkadm config print init-defaults|join-defaults` shows: kubeadm's defaults with its
// documented example values (token abcdef.0123456789abcdef, node "node", address 1.2.3.4,
// endpoint kube-apiserver:6443), so the output does not depend on the machine.
#pragma once

#include <string>

#include "app/config/types.h"
#include "app/util/machine.h"
#include "app/util/status.h"

namespace kkadm::config {

// A Machine answering with the example values above (hostname "node", default route 1.2.3.4);
// used for printing defaults and by `config validate`, which checks a file, not this host.
const util::Machine& ExampleMachine();

Result<InitConfiguration> InitDefaultsForPrint();
Result<JoinConfiguration> JoinDefaultsForPrint();

// The default KubeletConfiguration / KubeProxyConfiguration document for `cluster` (§9);
// InvalidArgument for another kind.
Result<nlohmann::json> DefaultComponentConfig(const std::string& kind, const ClusterConfiguration& cluster);

}  // namespace kkadm::config
