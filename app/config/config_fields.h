// A configuration's fields by name, as the node's journal compares them between runs: the
// v1beta4 documents kkadm prints for it, flattened (util/json_fields.h). ClusterConfiguration's
// and Init/JoinConfiguration's fields have no prefix ("networking.serviceSubnet",
// "nodeRegistration.name"), component configurations have their kind's
// ("KubeletConfiguration.maxPods").
#pragma once

#include <string_view>
#include <vector>

#include "app/config/types.h"
#include "app/util/json_fields.h"

namespace kkadm::config {

std::vector<util::JsonField> InitConfigFields(const InitConfiguration& cfg);
std::vector<util::JsonField> JoinConfigFields(const JoinConfiguration& cfg);

// Whether the field holds a secret (a bootstrap token, the certificate key), kept only as a hash.
bool IsSecretField(std::string_view name);

}  // namespace kkadm::config
