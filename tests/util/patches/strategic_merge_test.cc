#include "app/util/patches/strategic_merge.h"

#include <gtest/gtest.h>

#include "app/util/patches/patch_schema.h"
#include "tests/util/patches/pod_fixture.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;
using testing::ApiServerPod;
using testing::Yaml;

json Patch(const json& pod, const char* patch_yaml, std::string_view type = kPodType) {
  Result<json> out = StrategicMergePatch(pod, Yaml(patch_yaml), type);
  EXPECT_TRUE(out.has_value()) << out.status().ToString();
  return out.value_or(json());
}

std::vector<std::string> Names(const json& list, const std::string& key = "name") {
  std::vector<std::string> out;
  for (const json& v : list) out.push_back(v[key].get<std::string>());
  return out;
}

TEST(StrategicMergeTest, MergesContainerByNameKeepingOtherFields) {
  json out = Patch(ApiServerPod(), R"(
spec:
  containers:
  - name: kube-apiserver
    image: example.com/kube-apiserver:v1.32.1
    resources:
      limits:
        memory: 1Gi
)");
  const json& c = out["spec"]["containers"][0];
  EXPECT_EQ(out["spec"]["containers"].size(), 1u);
  EXPECT_EQ(c["image"], "example.com/kube-apiserver:v1.32.1");
  EXPECT_EQ(c["resources"],
            json::parse(R"({"requests":{"cpu":"250m"},"limits":{"memory":"1Gi"}})"));
  EXPECT_EQ(c["livenessProbe"]["httpGet"]["path"], "/livez");
  EXPECT_EQ(c["command"].size(), 3u);
}

TEST(StrategicMergeTest, NewContainerComesFirstAsApimachineryOrdersIt) {
  json out = Patch(ApiServerPod(), R"(
spec:
  containers:
  - name: sidecar
    image: busybox
)");
  EXPECT_EQ(Names(out["spec"]["containers"]),
            (std::vector<std::string>{"sidecar", "kube-apiserver"}));
}

TEST(StrategicMergeTest, MergesEnvByNameAndReplacesCommand) {
  json out = Patch(ApiServerPod(), R"(
spec:
  containers:
  - name: kube-apiserver
    command: [kube-apiserver, --v=4]
    env:
    - name: NO_PROXY
      value: 10.0.0.0/8,.svc
    - name: GODEBUG
      value: x509sha1=1
)");
  const json& c = out["spec"]["containers"][0];
  EXPECT_EQ(c["command"], json::parse(R"(["kube-apiserver","--v=4"])"));
  // HTTP_PROXY stays before NO_PROXY as on the server; GODEBUG follows NO_PROXY as in the patch.
  EXPECT_EQ(Names(c["env"]), (std::vector<std::string>{"HTTP_PROXY", "NO_PROXY", "GODEBUG"}));
  EXPECT_EQ(c["env"][0]["value"], "http://proxy:3128");
  EXPECT_EQ(c["env"][1]["value"], "10.0.0.0/8,.svc");
}

TEST(StrategicMergeTest, MergesVolumesByNameAndMountsByMountPath) {
  json out = Patch(ApiServerPod(), R"(
spec:
  volumes:
  - name: k8s-certs
    hostPath:
      path: /srv/pki
  - name: audit
    hostPath:
      path: /var/log/kubernetes
  containers:
  - name: kube-apiserver
    volumeMounts:
    - mountPath: /etc/kubernetes/pki
      name: k8s-certs
      readOnly: false
    - mountPath: /var/log/kubernetes
      name: audit
)");
  const json& volumes = out["spec"]["volumes"];
  EXPECT_EQ(Names(volumes), (std::vector<std::string>{"ca-certs", "k8s-certs", "audit"}));
  EXPECT_EQ(volumes[1]["hostPath"],
            json::parse(R"({"path":"/srv/pki","type":"DirectoryOrCreate"})"));
  const json& mounts = out["spec"]["containers"][0]["volumeMounts"];
  EXPECT_EQ(
      Names(mounts, "mountPath"),
      (std::vector<std::string>{"/etc/ssl/certs", "/etc/kubernetes/pki", "/var/log/kubernetes"}));
  EXPECT_EQ(mounts[1]["readOnly"], false);
  EXPECT_EQ(mounts[1]["name"], "k8s-certs");
}

TEST(StrategicMergeTest, DeleteDirectiveRemovesListElement) {
  json out = Patch(ApiServerPod(), R"(
spec:
  volumes:
  - name: ca-certs
    $patch: delete
  containers:
  - name: kube-apiserver
    volumeMounts:
    - mountPath: /etc/ssl/certs
      $patch: delete
    env:
    - name: HTTP_PROXY
      $patch: delete
)");
  EXPECT_EQ(Names(out["spec"]["volumes"]), std::vector<std::string>{"k8s-certs"});
  const json& c = out["spec"]["containers"][0];
  EXPECT_EQ(Names(c["volumeMounts"], "mountPath"), std::vector<std::string>{"/etc/kubernetes/pki"});
  EXPECT_EQ(Names(c["env"]), std::vector<std::string>{"NO_PROXY"});
}

TEST(StrategicMergeTest, NullDeletesKey) {
  json out = Patch(ApiServerPod(), R"(
metadata:
  annotations: null
  labels:
    tier: null
spec:
  priority: null
  containers:
  - name: kube-apiserver
    livenessProbe: ~
)");
  EXPECT_FALSE(out["metadata"].contains("annotations"));
  EXPECT_EQ(out["metadata"]["labels"], json::parse(R"({"component":"kube-apiserver"})"));
  EXPECT_FALSE(out["spec"].contains("priority"));
  EXPECT_FALSE(out["spec"]["containers"][0].contains("livenessProbe"));
}

TEST(StrategicMergeTest, ReplaceDirectives) {
  json out = Patch(ApiServerPod(), R"(
spec:
  securityContext:
    $patch: replace
    runAsUser: 0
  volumes:
  - $patch: replace
  - name: only
    emptyDir: {}
  containers:
  - name: kube-apiserver
    resources:
      $patch: delete
)");
  EXPECT_EQ(out["spec"]["securityContext"], json::parse(R"({"runAsUser":0})"));
  EXPECT_EQ(out["spec"]["volumes"], json::parse(R"([{"name":"only","emptyDir":{}}])"));
  EXPECT_EQ(out["spec"]["containers"][0]["resources"], json::object());
}

TEST(StrategicMergeTest, ListsWithoutMergeStrategyAreReplaced) {
  json pod = ApiServerPod();
  pod["spec"]["tolerations"] = json::parse(R"([{"key":"a","operator":"Exists"}])");
  json out = Patch(pod, R"(
spec:
  tolerations:
  - operator: Exists
    effect: NoExecute
)");
  EXPECT_EQ(out["spec"]["tolerations"],
            json::parse(R"([{"operator":"Exists","effect":"NoExecute"}])"));
}

TEST(StrategicMergeTest, ScalarMergeListsUnionAndParallelDeletion) {
  json pod = ApiServerPod();
  pod["metadata"]["finalizers"] = json::parse(R"(["a","b"])");
  json out = Patch(pod, R"(
metadata:
  finalizers: [c, a]
)");
  EXPECT_EQ(out["metadata"]["finalizers"], json::parse(R"(["c","a","b"])"));
  out = Patch(pod, R"(
metadata:
  $deleteFromPrimitiveList/finalizers: [a]
)");
  EXPECT_EQ(out["metadata"]["finalizers"], json::parse(R"(["b"])"));
}

TEST(StrategicMergeTest, RetainKeysAndSetElementOrder) {
  json out = Patch(ApiServerPod(), R"(
spec:
  volumes:
  - name: k8s-certs
    $retainKeys: [name, emptyDir]
    emptyDir: {}
  $setElementOrder/volumes:
  - name: k8s-certs
  - name: ca-certs
)");
  EXPECT_EQ(out["spec"]["volumes"][0], json::parse(R"({"name":"k8s-certs","emptyDir":{}})"));
  EXPECT_EQ(out["spec"]["volumes"][1]["name"], "ca-certs");
}

TEST(StrategicMergeTest, DeploymentTemplateContainersMergeByName) {
  json deployment = Yaml(R"(
apiVersion: apps/v1
kind: Deployment
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: coredns
        image: registry.k8s.io/coredns/coredns:v1.11.3
        args: [-conf, /etc/coredns/Corefile]
)");
  json out = Patch(deployment, R"(
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: coredns
        image: example.com/coredns:v1.11.3
)",
                   kDeploymentType);
  EXPECT_EQ(out["spec"]["replicas"], 1);
  const json& c = out["spec"]["template"]["spec"]["containers"];
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0]["image"], "example.com/coredns:v1.11.3");
  EXPECT_EQ(c[0]["args"].size(), 2u);
}

TEST(StrategicMergeTest, UnknownTypeMergesMapsAndReplacesLists) {
  json config = Yaml(R"(
kind: KubeletConfiguration
clusterDNS: [10.96.0.10]
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
)");
  json out = Patch(config, R"(
clusterDNS: [10.96.0.53]
authentication:
  webhook: {cacheTTL: 0s}
  anonymous: null
)",
                   "");
  EXPECT_EQ(out["clusterDNS"], json::parse(R"(["10.96.0.53"])"));
  EXPECT_EQ(out["authentication"], json::parse(R"({"webhook":{"enabled":true,"cacheTTL":"0s"}})"));
}

TEST(StrategicMergeTest, Errors) {
  auto error = [](const char* patch) {
    Result<json> out = StrategicMergePatch(ApiServerPod(), Yaml(patch), kPodType);
    return out ? std::string("OK") : out.error().message();
  };
  EXPECT_EQ(error("spec:\n  containers:\n  - image: busybox\n"),
            "at spec.containers: map {\"image\":\"busybox\"} does not contain declared merge key "
            "\"name\"");
  EXPECT_EQ(error("spec:\n  volumes:\n  - name: x\n    $patch: explode\n"),
            "at spec.volumes: unknown patch type \"explode\" in map "
            "{\"$patch\":\"explode\",\"name\":\"x\"}");
  EXPECT_EQ(
      error("spec:\n  containers:\n  - name: kube-apiserver\n    env:\n    - name: A\n    - 7\n"),
      "at spec.containers[name=\"kube-apiserver\"].env: list element types are not identical");
  EXPECT_EQ(StrategicMergePatch(ApiServerPod(), json::array(), kPodType).error().message(),
            "a strategic merge patch must be a map, got []");
}

}  // namespace
}  // namespace kkadm::util::patches
