// Strict decoding of the component configuration documents of a config file, as kubeadm's
// VerifyUnmarshalStrict does for KubeletConfiguration and KubeProxyConfiguration: unknown fields
// and values of the wrong type, judged against the Kubernetes 1.32 fields of component_fields.h.
#pragma once

#include <string_view>

#include "app/config/field_reader.h"

namespace kkadm::config {

// Walks `doc` (a document of kind `kind`) and reports through `context`, with the paths of the
// document ("authentication.x509.clientCAFile", "shutdownGracePeriodByPodPriority[1].priority"):
// a field the table does not know as "<origin>: <path>: unknown field" (a warning, or an error when
// the context is strict, as kubeadm's init/join and `config validate`), a value of the wrong type
// as
// "<origin>: <path>: invalid value "<value>": must be ..." (always an error: kubeadm cannot decode
// the document either). Keys of free-form maps (evictionHard, featureGates, ...) are not judged.
// A kind without a table is not checked.
void CheckComponentConfig(const Json& doc, std::string_view kind, DecodeContext& context);

}  // namespace kkadm::config
