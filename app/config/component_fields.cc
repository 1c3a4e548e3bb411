// Kubernetes 1.32's component configuration fields (see component_fields.h), read from
// k8s.io/kubelet v0.32.0 config/v1beta1/types.go, k8s.io/kube-proxy v0.32.0
// config/v1alpha1/types.go and k8s.io/component-base v0.32.0 (logs/api/v1, tracing/api/v1,
// config/v1alpha1 ClientConnectionConfiguration).
#include "app/config/component_fields.h"

#include <cstddef>
#include <utility>

namespace kkadm::config {
namespace {

using Table = std::unordered_map<std::string, FieldKind>;
using Entry = std::pair<const char*, FieldKind>;

constexpr FieldKind S = FieldKind::kString, B = FieldKind::kBool, I32 = FieldKind::kInt32,
                    I64 = FieldKind::kInt64, U32 = FieldKind::kUint32, F = FieldKind::kFloat,
                    D = FieldKind::kDuration, O = FieldKind::kObject, OL = FieldKind::kObjectList,
                    SL = FieldKind::kStringList, SM = FieldKind::kStringMap,
                    BM = FieldKind::kBoolMap;

// metav1.TypeMeta: the only metadata these kinds have.
constexpr Entry kTypeMeta[] = {{"apiVersion", S}, {"kind", S}};

// component-base logs/api/v1 LoggingConfiguration (TextOptions and JSONOptions inline
// OutputRoutingOptions).
constexpr Entry kLogging[] = {
    {"format", S},
    {"flushFrequency", FieldKind::kDurationOrInt},
    {"verbosity", U32},
    {"vmodule", OL},
    {"vmodule[].filePattern", S},
    {"vmodule[].verbosity", U32},
    {"options", O},
    {"options.text", O},
    {"options.text.splitStream", B},
    {"options.text.infoBufferSize", FieldKind::kQuantity},
    {"options.json", O},
    {"options.json.splitStream", B},
    {"options.json.infoBufferSize", FieldKind::kQuantity},
};

constexpr Entry kKubelet[] = {
    {"enableServer", B},
    {"staticPodPath", S},
    {"podLogsDir", S},
    {"syncFrequency", D},
    {"fileCheckFrequency", D},
    {"httpCheckFrequency", D},
    {"staticPodURL", S},
    {"staticPodURLHeader", FieldKind::kStringListMap},
    {"address", S},
    {"port", I32},
    {"readOnlyPort", I32},
    {"tlsCertFile", S},
    {"tlsPrivateKeyFile", S},
    {"tlsCipherSuites", SL},
    {"tlsMinVersion", S},
    {"rotateCertificates", B},
    {"serverTLSBootstrap", B},
    {"authentication", O},
    {"authentication.x509", O},
    {"authentication.x509.clientCAFile", S},
    {"authentication.webhook", O},
    {"authentication.webhook.enabled", B},
    {"authentication.webhook.cacheTTL", D},
    {"authentication.anonymous", O},
    {"authentication.anonymous.enabled", B},
    {"authorization", O},
    {"authorization.mode", S},
    {"authorization.webhook", O},
    {"authorization.webhook.cacheAuthorizedTTL", D},
    {"authorization.webhook.cacheUnauthorizedTTL", D},
    {"registryPullQPS", I32},
    {"registryBurst", I32},
    {"eventRecordQPS", I32},
    {"eventBurst", I32},
    {"enableDebuggingHandlers", B},
    {"enableContentionProfiling", B},
    {"healthzPort", I32},
    {"healthzBindAddress", S},
    {"oomScoreAdj", I32},
    {"clusterDomain", S},
    {"clusterDNS", SL},
    {"streamingConnectionIdleTimeout", D},
    {"nodeStatusUpdateFrequency", D},
    {"nodeStatusReportFrequency", D},
    {"nodeLeaseDurationSeconds", I32},
    {"imageMinimumGCAge", D},
    {"imageMaximumGCAge", D},
    {"imageGCHighThresholdPercent", I32},
    {"imageGCLowThresholdPercent", I32},
    {"volumeStatsAggPeriod", D},
    {"kubeletCgroups", S},
    {"systemCgroups", S},
    {"cgroupRoot", S},
    {"cgroupsPerQOS", B},
    {"cgroupDriver", S},
    {"cpuManagerPolicy", S},
    {"singleProcessOOMKill", B},
    {"cpuManagerPolicyOptions", SM},
    {"cpuManagerReconcilePeriod", D},
    {"memoryManagerPolicy", S},
    {"topologyManagerPolicy", S},
    {"topologyManagerScope", S},
    {"topologyManagerPolicyOptions", SM},
    {"qosReserved", SM},
    {"runtimeRequestTimeout", D},
    {"hairpinMode", S},
    {"maxPods", I32},
    {"podCIDR", S},
    {"podPidsLimit", I64},
    {"resolvConf", S},
    {"runOnce", B},
    {"cpuCFSQuota", B},
    {"cpuCFSQuotaPeriod", D},
    {"nodeStatusMaxImages", I32},
    {"maxOpenFiles", I64},
    {"contentType", S},
    {"kubeAPIQPS", I32},
    {"kubeAPIBurst", I32},
    {"serializeImagePulls", B},
    {"maxParallelImagePulls", I32},
    {"evictionHard", SM},
    {"evictionSoft", SM},
    {"evictionSoftGracePeriod", SM},
    {"evictionPressureTransitionPeriod", D},
    {"evictionMaxPodGracePeriod", I32},
    {"evictionMinimumReclaim", SM},
    {"podsPerCore", I32},
    {"enableControllerAttachDetach", B},
    {"protectKernelDefaults", B},
    {"makeIPTablesUtilChains", B},
    {"iptablesMasqueradeBit", I32},
    {"iptablesDropBit", I32},
    {"featureGates", BM},
    {"failSwapOn", B},
    {"memorySwap", O},
    {"memorySwap.swapBehavior", S},
    {"containerLogMaxSize", S},
    {"containerLogMaxFiles", I32},
    {"containerLogMaxWorkers", I32},
    {"containerLogMonitorInterval", D},
    {"configMapAndSecretChangeDetectionStrategy", S},
    {"systemReserved", SM},
    {"kubeReserved", SM},
    {"reservedSystemCPUs", S},
    {"showHiddenMetricsForVersion", S},
    {"systemReservedCgroup", S},
    {"kubeReservedCgroup", S},
    {"enforceNodeAllocatable", SL},
    {"allowedUnsafeSysctls", SL},
    {"volumePluginDir", S},
    {"providerID", S},
    {"kernelMemcgNotification", B},
    {"logging", O},
    {"enableSystemLogHandler", B},
    {"enableSystemLogQuery", B},
    {"shutdownGracePeriod", D},
    {"shutdownGracePeriodCriticalPods", D},
    {"shutdownGracePeriodByPodPriority", OL},
    {"shutdownGracePeriodByPodPriority[].priority", I32},
    {"shutdownGracePeriodByPodPriority[].shutdownGracePeriodSeconds", I64},
    {"crashLoopBackOff", O},
    {"crashLoopBackOff.maxContainerRestartPeriod", D},
    {"reservedMemory", OL},
    {"reservedMemory[].numaNode", I32},
    {"reservedMemory[].limits", FieldKind::kQuantityMap},
    {"enableProfilingHandler", B},
    {"enableDebugFlagsHandler", B},
    {"seccompDefault", B},
    {"memoryThrottlingFactor", F},
    {"registerWithTaints", OL},
    {"registerWithTaints[].key", S},
    {"registerWithTaints[].value", S},
    {"registerWithTaints[].effect", S},
    {"registerWithTaints[].timeAdded", FieldKind::kTime},
    {"registerNode", B},
    {"tracing", O},
    {"tracing.endpoint", S},
    {"tracing.samplingRatePerMillion", I32},
    {"localStorageCapacityIsolation", B},
    {"containerRuntimeEndpoint", S},
    {"imageServiceEndpoint", S},
    {"failCgroupV1", B},
};

constexpr Entry kKubeProxy[] = {
    {"featureGates", BM},
    {"clientConnection", O},
    {"clientConnection.kubeconfig", S},
    {"clientConnection.acceptContentTypes", S},
    {"clientConnection.contentType", S},
    {"clientConnection.qps", F},
    {"clientConnection.burst", I32},
    {"logging", O},
    {"hostnameOverride", S},
    {"bindAddress", S},
    {"healthzBindAddress", S},
    {"metricsBindAddress", S},
    {"bindAddressHardFail", B},
    {"enableProfiling", B},
    {"showHiddenMetricsForVersion", S},
    {"mode", S},
    {"iptables", O},
    {"iptables.masqueradeBit", I32},
    {"iptables.masqueradeAll", B},
    {"iptables.localhostNodePorts", B},
    {"iptables.syncPeriod", D},
    {"iptables.minSyncPeriod", D},
    {"ipvs", O},
    {"ipvs.syncPeriod", D},
    {"ipvs.minSyncPeriod", D},
    {"ipvs.scheduler", S},
    {"ipvs.excludeCIDRs", SL},
    {"ipvs.strictARP", B},
    {"ipvs.tcpTimeout", D},
    {"ipvs.tcpFinTimeout", D},
    {"ipvs.udpTimeout", D},
    {"nftables", O},
    {"nftables.masqueradeBit", I32},
    {"nftables.masqueradeAll", B},
    {"nftables.syncPeriod", D},
    {"nftables.minSyncPeriod", D},
    {"winkernel", O},
    {"winkernel.networkName", S},
    {"winkernel.sourceVip", S},
    {"winkernel.enableDSR", B},
    {"winkernel.rootHnsEndpointName", S},
    {"winkernel.forwardHealthCheckVip", B},
    {"detectLocalMode", S},
    {"detectLocal", O},
    {"detectLocal.bridgeInterface", S},
    {"detectLocal.interfaceNamePrefix", S},
    {"clusterCIDR", S},
    {"nodePortAddresses", SL},
    {"oomScoreAdj", I32},
    {"conntrack", O},
    {"conntrack.maxPerCore", I32},
    {"conntrack.min", I32},
    {"conntrack.tcpEstablishedTimeout", D},
    {"conntrack.tcpCloseWaitTimeout", D},
    {"conntrack.tcpBeLiberal", B},
    {"conntrack.udpTimeout", D},
    {"conntrack.udpStreamTimeout", D},
    {"configSyncPeriod", D},
    {"portRange", S},
    {"windowsRunAsService", B},
};

template <size_t N>
void Add(Table& table, const Entry (&entries)[N], const std::string& prefix = "") {
  for (const auto& [path, kind] : entries) table.emplace(prefix + path, kind);
}

template <size_t N>
Table Build(const Entry (&own)[N]) {
  Table table;
  Add(table, kTypeMeta);
  Add(table, kLogging, "logging.");
  Add(table, own);
  return table;
}

}  // namespace

const std::unordered_map<std::string, FieldKind>* ComponentFields(std::string_view kind) {
  static const Table kKubeletTable = Build(kKubelet);
  static const Table kKubeProxyTable = Build(kKubeProxy);
  if (kind == "KubeletConfiguration") return &kKubeletTable;
  if (kind == "KubeProxyConfiguration") return &kKubeProxyTable;
  return nullptr;
}

}  // namespace kkadm::config
