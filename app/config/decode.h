// Decoders from one kubeadm.k8s.io document (already JSON) to the internal types. Every decoder
// fills the fields present, leaves the types.h defaults for absent ones, and reports problems
// through the DecodeContext (first error kept; unknown fields per strictness).
#pragma once

#include <optional>

#include "app/config/field_reader.h"
#include "app/config/types.h"

namespace kkadm::config {

// A decoded ClusterConfiguration plus the v1beta3 field that moved to InitConfiguration.timeouts.
struct DecodedCluster {
  ClusterConfiguration cfg;
  std::optional<Duration> timeout_for_control_plane;  // v1beta3 apiServer.timeoutForControlPlane
};

InitConfiguration DecodeInitConfiguration(const Json& doc, DecodeContext& context);
DecodedCluster DecodeClusterConfiguration(const Json& doc, DecodeContext& context);
JoinConfiguration DecodeJoinConfiguration(const Json& doc, DecodeContext& context);
ResetConfiguration DecodeResetConfiguration(const Json& doc, DecodeContext& context);

// Pieces shared by the kinds (decode_node.cc).
void DecodeNodeRegistration(FieldReader& parent, const char* key, NodeRegistration& out);
void DecodeAPIEndpoint(FieldReader& parent, const char* key, APIEndpoint& out);
void DecodeTimeouts(FieldReader& parent, Timeouts& out);
void DecodeBootstrapTokens(FieldReader& parent, std::vector<BootstrapToken>& out);
void DecodeEnvs(FieldReader& parent, const char* key, std::vector<EnvVar>& out);

}  // namespace kkadm::config
