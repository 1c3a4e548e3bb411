// The fields of the component configuration kinds kkadm accepts beside kubeadm's own, as in
// Kubernetes 1.32: kubelet.config.k8s.io/v1beta1 KubeletConfiguration and
// kubeproxy.config.k8s.io/v1alpha1 KubeProxyConfiguration (with component-base's logging, tracing
// and client connection types). kubeadm decodes them strictly; this table lets kkadm do the same.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

namespace kkadm::config {

// How a field decodes (Go's encoding/json into the field's type). Every field also accepts null.
enum class FieldKind : unsigned char {
  kString,
  kBool,
  kInt32,
  kInt64,
  kUint32,
  kFloat,          // any number
  kDuration,       // metav1.Duration: a string such as "1m30s"
  kDurationOrInt,  // logging.flushFrequency: a duration string or nanoseconds
  kQuantity,       // resource.Quantity: "100Mi", "1.5", or a number
  kTime,           // metav1.Time: an RFC 3339 string
  kObject,         // a struct: its fields are listed under "<path>."
  kObjectList,     // a list of structs: the item fields are listed under "<path>[]."
  kStringList,
  kStringMap,      // free keys (evictionHard: memory.available, ...), string values
  kBoolMap,        // featureGates
  kStringListMap,  // staticPodURLHeader
  kQuantityMap,    // reservedMemory[].limits (a ResourceList)
};

// Field paths of `kind` ("KubeletConfiguration", "KubeProxyConfiguration") to their kinds:
// "authentication.x509.clientCAFile", "shutdownGracePeriodByPodPriority[].priority". Null for a
// kind kkadm has no table for.
const std::unordered_map<std::string, FieldKind>* ComponentFields(std::string_view kind);

}  // namespace kkadm::config
