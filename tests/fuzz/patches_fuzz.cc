// Fuzz target: one --patches file, parsed and applied as kubeadm's patch manager does (JSON patch,
// merge patch, strategic merge patch with its directives). The input's first line is the file's
// name (target[suffix][+type].{yaml,json}), the rest its content; after a line
// "#kkadm-fuzz-original" comes the object to patch (YAML), else a typical one for the target.
#include <map>

#include "app/util/patches/patch_set.h"
#include "app/util/yaml/yaml.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

constexpr std::string_view kOriginalMarker = "\n#kkadm-fuzz-original\n";

constexpr const char* kPod = R"(apiVersion: v1
kind: Pod
metadata: {labels: {component: etcd, tier: control-plane}, name: etcd, namespace: kube-system}
spec:
  containers:
  - command: [etcd, --data-dir=/var/lib/etcd]
    env: [{name: A, value: b}]
    image: registry.k8s.io/etcd:3.5.16-0
    name: etcd
    ports: [{containerPort: 2381, name: probe-port, protocol: TCP}]
    resources: {requests: {cpu: 100m, memory: 100Mi}}
    volumeMounts: [{mountPath: /var/lib/etcd, name: etcd-data}]
  hostNetwork: true
  tolerations: [{effect: NoExecute, operator: Exists}]
  volumes: [{hostPath: {path: /var/lib/etcd, type: DirectoryOrCreate}, name: etcd-data}]
)";
constexpr const char* kKubeletConfiguration = R"(apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication: {anonymous: {enabled: false}, webhook: {enabled: true}}
cgroupDriver: systemd
clusterDNS: [10.96.0.10]
evictionHard: {memory.available: 100Mi}
)";
constexpr const char* kDeployment = R"(apiVersion: apps/v1
kind: Deployment
metadata: {labels: {k8s-app: kube-dns}, name: coredns, namespace: kube-system}
spec:
  replicas: 2
  selector: {matchLabels: {k8s-app: kube-dns}}
  template:
    metadata: {labels: {k8s-app: kube-dns}}
    spec:
      containers:
      - args: [-conf, /etc/coredns/Corefile]
        image: registry.k8s.io/coredns/coredns:v1.11.3
        name: coredns
        volumeMounts: [{mountPath: /etc/coredns, name: config-volume, readOnly: true}]
      volumes: [{configMap: {name: coredns}, name: config-volume}]
)";

const nlohmann::json& TypicalObject(const std::string& target) {
  static const std::map<std::string, nlohmann::json> objects = {
      {"pod", *kkadm::util::yaml::Read(kPod)},
      {"kubeletconfiguration", *kkadm::util::yaml::Read(kKubeletConfiguration)},
      {"corednsdeployment", *kkadm::util::yaml::Read(kDeployment)}};
  auto it = objects.find(target);
  return it == objects.end() ? objects.at("pod") : it->second;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = kkadm::fuzz::AsText(data, size);
  const std::size_t name_end = text.find('\n');
  if (name_end == std::string_view::npos) return 0;
  kkadm::util::patches::PatchFile file{"patches/" + std::string(text.substr(0, name_end)), ""};
  text.remove_prefix(name_end + 1);
  std::optional<nlohmann::json> original;
  if (const std::size_t marker = text.find(kOriginalMarker); marker != std::string_view::npos) {
    auto read = kkadm::util::yaml::Read(text.substr(marker + kOriginalMarker.size()));
    if (!read) return 0;
    original = std::move(*read);
    text = text.substr(0, marker);
  }
  file.content = std::string(text);
  auto set = kkadm::util::patches::LoadPatchSet({file});
  if (!set) return 0;
  (void)kkadm::util::patches::DescribePatchSet(*set, "patches");
  for (const auto& [target, patches] : set->by_target) {
    (void)kkadm::util::patches::ApplyPatches(*set, target,
                                             original ? *original : TypicalObject(target));
  }
  return 0;
}
