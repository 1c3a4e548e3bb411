// What `kkadm config print init-defaults|join-defaults` shows: kubeadm's defaults with its
// documented example values (token abcdef.0123456789abcdef, node "node", address 1.2.3.4,
// endpoint kube-apiserver:6443), so the output does not depend on the machine.
#pragma once

#include <memory>
#include <string>

#include "app/config/types.h"
#include "app/util/machine.h"
#include "app/util/status.h"

namespace kkadm::config {

// A Machine answering with the example values above (hostname "node", default route 1.2.3.4), and
// with no files; used for printing defaults.
const util::Machine& ExampleMachine();
// The same, except that PathExists asks `paths` (which must outlive it): `config validate` checks a
// file, not this host, but a discovery file the file names must exist here, as kubeadm checks.
std::unique_ptr<util::Machine> ExampleMachine(const util::Machine& paths);

Result<InitConfiguration> InitDefaultsForPrint();
Result<JoinConfiguration> JoinDefaultsForPrint();
// kubeadm's DefaultedResetConfiguration without CRI detection: the default containerd socket.
ResetConfiguration ResetDefaultsForPrint();

// The default KubeletConfiguration / KubeProxyConfiguration document for `cluster` (§9);
// InvalidArgument for another kind.
Result<nlohmann::json> DefaultComponentConfig(const std::string& kind,
                                              const ClusterConfiguration& cluster);

}  // namespace kkadm::config
