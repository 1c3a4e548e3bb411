// Cross-checks kkadm's patching against the real implementation: `kubectl patch --local` runs
// apimachinery's strategic merge / evanphx json-patch code offline on the same Pod and patch.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "app/util/patches/patch_set.h"
#include "tests/fakes/temp_dir.h"
#include "tests/util/patches/pod_fixture.h"

namespace kkadm::util::patches {
namespace {

using nlohmann::json;

struct OracleCase {
  const char* name;
  const char* type;  // json | merge | strategic
  const char* patch_yaml;
};

std::string RunCommand(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  ::pclose(pipe);
  return out;
}

bool HaveKubectl() { return !RunCommand("command -v kubectl 2>/dev/null").empty(); }

class KubectlOracleTest : public ::testing::TestWithParam<OracleCase> {};

TEST_P(KubectlOracleTest, MatchesKubectlPatchLocal) {
  if (!HaveKubectl()) GTEST_SKIP() << "kubectl not installed";
  const OracleCase& c = GetParam();
  kkadm::testing::TempDir dir;
  json pod = testing::ApiServerPod();
  json patch_docs = testing::Yaml(c.patch_yaml);
  std::ofstream(dir.path() + "/pod.json") << pod.dump();
  std::ofstream(dir.path() + "/patch.json") << patch_docs.dump();
  // The kubeconfig points nowhere real: --local never contacts a server.
  std::string out = RunCommand("kubectl patch --local --kubeconfig /dev/null -o json --type " +
                               std::string(c.type) + " -f " + dir.path() +
                               "/pod.json --patch-file " + dir.path() + "/patch.json 2>&1");
  json want = json::parse(out, nullptr, false);
  ASSERT_FALSE(want.is_discarded()) << "kubectl said: " << out;

  Result<PatchSet> set = LoadPatchSet(
      {{std::string("patches/kube-apiserver+") + c.type + ".yaml", std::string(c.patch_yaml)}});
  ASSERT_TRUE(set.has_value()) << set.status().ToString();
  Result<PatchedObject> got = ApplyPatches(*set, "kube-apiserver", pod);
  ASSERT_TRUE(got.has_value()) << got.status().ToString();
  EXPECT_EQ(got->object, want) << "kkadm:   " << got->object.dump() << "\nkubectl: " << want.dump();
}

INSTANTIATE_TEST_SUITE_P(
    Patches, KubectlOracleTest,
    ::testing::Values(
        OracleCase{
            "ContainerImage", "strategic",
            "spec:\n  containers:\n  - name: kube-apiserver\n    image: example.com/kas:v1\n"},
        OracleCase{"NewContainer", "strategic",
                   "spec:\n  containers:\n  - name: sidecar\n    image: busybox\n"},
        OracleCase{"NewAndExistingContainers", "strategic",
                   "spec:\n  containers:\n  - name: a\n    image: a\n  - name: kube-apiserver\n"
                   "    image: b\n  - name: z\n    image: z\n"},
        OracleCase{
            "EnvByName", "strategic",
            "spec:\n  containers:\n  - name: kube-apiserver\n    env:\n    - name: NO_PROXY\n"
            "      value: x\n    - name: GODEBUG\n      value: y1\n"},
        OracleCase{
            "EnvReordered", "strategic",
            "spec:\n  containers:\n  - name: kube-apiserver\n    env:\n    - name: NO_PROXY\n"
            "      value: x\n    - name: HTTP_PROXY\n      value: z\n"},
        OracleCase{"VolumesAndMounts", "strategic",
                   "spec:\n  volumes:\n  - name: audit\n    hostPath: {path: /var/log/k}\n"
                   "  - name: k8s-certs\n    hostPath: {path: /srv/pki}\n  containers:\n"
                   "  - name: kube-apiserver\n    volumeMounts:\n    - mountPath: /var/log/k\n"
                   "      name: audit\n    - mountPath: /etc/ssl/certs\n      readOnly: false\n"},
        OracleCase{
            "DeleteElements", "strategic",
            "spec:\n  volumes:\n  - name: ca-certs\n    $patch: delete\n  containers:\n"
            "  - name: kube-apiserver\n    volumeMounts:\n    - mountPath: /etc/ssl/certs\n"
            "      $patch: delete\n    env:\n    - name: HTTP_PROXY\n      $patch: delete\n"},
        OracleCase{
            "NullDeletes", "strategic",
            "metadata:\n  annotations: null\n  labels: {tier: null}\nspec:\n  priority: null\n"
            "  containers:\n  - name: kube-apiserver\n    livenessProbe: null\n"},
        OracleCase{"ReplaceList", "strategic",
                   "spec:\n  volumes:\n  - $patch: replace\n  - name: only\n    emptyDir: {}\n"},
        OracleCase{"ReplaceMap", "strategic",
                   "spec:\n  securityContext:\n    $patch: replace\n    runAsUser: 0\n"},
        OracleCase{
            "PortsAndPullSecrets", "strategic",
            "spec:\n  imagePullSecrets:\n  - name: regcred\n  containers:\n"
            "  - name: kube-apiserver\n    ports:\n    - containerPort: 6443\n      name: https\n"},
        OracleCase{"Tolerations", "strategic",
                   "spec:\n  tolerations:\n  - operator: Exists\n    effect: NoExecute\n"},
        OracleCase{"SetElementOrder", "strategic",
                   "spec:\n  $setElementOrder/volumes:\n  - name: k8s-certs\n  - name: ca-certs\n"
                   "  volumes:\n  - name: k8s-certs\n    hostPath: {path: /x}\n"},
        OracleCase{"RetainKeys", "strategic",
                   "spec:\n  volumes:\n  - name: k8s-certs\n    $retainKeys: [name, emptyDir]\n"
                   "    emptyDir: {medium: Memory}\n"},
        OracleCase{"MapDelete", "strategic", "spec:\n  securityContext:\n    $patch: delete\n"},
        OracleCase{
            "NewInitContainerAndPorts", "strategic",
            "spec:\n  initContainers:\n  - name: init\n    image: busybox\n  containers:\n"
            "  - name: kube-apiserver\n    ports:\n    - containerPort: 6443\n      protocol: TCP\n"
            "    - containerPort: 8443\n"},
        OracleCase{"ScalarTypeChange", "strategic",
                   "spec:\n  containers:\n  - name: kube-apiserver\n    livenessProbe:\n"
                   "      httpGet: {port: https}\n"},
        OracleCase{"MergePatchReplacesLists", "merge",
                   "metadata:\n  labels: {tier: null, extra: yes-please}\nspec:\n  containers:\n"
                   "  - name: only\n    image: x\n"},
        OracleCase{"JsonPatch", "json",
                   "[{op: add, path: /spec/containers/0/command/-, value: --v=4},"
                   " {op: replace, path: /spec/hostNetwork, value: false},"
                   " {op: remove, path: /metadata/annotations},"
                   " {op: copy, from: /metadata/labels/component, path: /metadata/labels/app},"
                   " {op: test, path: /spec/priorityClassName, value: system-node-critical}]"}),
    [](const ::testing::TestParamInfo<OracleCase>& param) {
      return std::string(param.param.name);
    });

}  // namespace
}  // namespace kkadm::util::patches
