// Pre-flight checks on services (util::InitSystem).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/phases/preflight/check.h"

namespace kkadm::phases::preflight {

// "Service-<Service>" (e.g. "Service-Kubelet"): warnings when the unit "<service>.service" does
// not exist or is not enabled, or when the init system cannot be reached.
std::unique_ptr<Check> NewServiceCheck(std::string service);
// "Firewalld": warning when firewalld is active, naming the ports that must be open.
std::unique_ptr<Check> NewFirewalldCheck(std::vector<int> ports);

}  // namespace kkadm::phases::preflight
